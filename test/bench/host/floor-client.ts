// The floor's HTTP: one undici request per round trip, straight to the service, nothing else.
import type * as Undici from 'undici';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonRecord = { [key: string]: JsonValue };

export interface PromptSummary {
  id: number;
  name: string;
  group: string | null;
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function summaryOf(value: unknown): PromptSummary {
  if (!isRecord(value) || typeof value.id !== 'number' || typeof value.name !== 'string') {
    throw new Error(`not a prompt summary: ${JSON.stringify(value).slice(0, 200)}`);
  }
  return { id: value.id, name: value.name, group: typeof value.group === 'string' ? value.group : null };
}

export class FloorClient {
  constructor(
    private readonly undici: typeof Undici,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async send(method: 'GET' | 'PUT', path: string, body?: JsonValue): Promise<unknown> {
    const response = await this.undici.request(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  }

  async tenants(): Promise<{ id: number; name: string }[]> {
    const answer = await this.send('GET', '/tenants');
    if (!Array.isArray(answer)) throw new Error('GET /tenants did not answer an array');
    return answer
      .filter(isRecord)
      .flatMap((t) => (typeof t.id === 'number' && typeof t.name === 'string' ? [{ id: t.id, name: t.name }] : []));
  }

  async prompts(tenantId: number): Promise<PromptSummary[]> {
    const answer = await this.send('GET', `/ai_prompts?tenant_id=${tenantId}`);
    if (!Array.isArray(answer)) throw new Error('the prompt list is not an array');
    return answer.map(summaryOf);
  }

  async prompt(tenantId: number, id: number): Promise<JsonRecord> {
    const answer = await this.send('GET', `/ai_prompts/${id}?tenant_id=${tenantId}`);
    if (!isRecord(answer)) throw new Error(`prompt ${id} is not an object`);
    return answer;
  }

  /** Resolves with the service's answer: the prompt as saved. */
  async updatePrompt(tenantId: number, id: number, fields: JsonRecord): Promise<JsonRecord> {
    const answer = await this.send('PUT', `/ai_prompts/${id}?tenant_id=${tenantId}`, { prompt: fields });
    if (!isRecord(answer)) throw new Error(`the update of prompt ${id} did not answer an object`);
    return answer;
  }
}
