import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { workbench } from './workbench';

/** A client of the workbench's local service as its admin, for checking what a test's clicks did; close it after. */
export function adminClient(): ServiceClient {
  const { service } = workbench();
  return new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
}

/** The id of the sample data's prompt of that name in that tenant. */
export async function samplePromptId(client: ServiceClient, tenantId: number, name: string): Promise<number> {
  const prompt = (await client.list(kindById('prompt'), tenantId)).find((p) => p.name === name);
  assert.ok(prompt, `the sample data has the prompt ${name}`);
  return prompt.id as number;
}

/** How many test_prompt requests for this prompt the workbench's local service has received (its request log). */
export async function testPromptRequests(promptId: number): Promise<number> {
  const { service } = workbench();
  const response = await request(`${service.url}/__test/requests`);
  assert.equal(response.statusCode, 200);
  const log = (await response.body.json()) as { method: string; path: string }[];
  return log.filter((r) => r.method === 'POST' && r.path.endsWith(`/ai_prompts/${promptId}/test_prompt`)).length;
}
