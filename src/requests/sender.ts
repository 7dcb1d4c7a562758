import { http, type Dispatcher } from '../core/http';
import type { Json } from '../core/json';
import { createDispatcher, type NetworkSettings } from '../core/network';
import type { BuiltRequest } from '../core/request-builder';
import { messageOf } from '../core/text';

export interface SentResponse {
  status: number;
  headers: Record<string, string>;
  body?: Json;
}

function isJson(contentType: string): boolean {
  return /\bjson\b/i.test(contentType);
}

/**
 * Sends a built request through the same proxy and CA rules as the service's
 * requests; one deadline covers the whole exchange, and the caller can cancel.
 */
export async function send(
  built: BuiltRequest,
  options: { timeoutMs: number; signal?: AbortSignal; network: NetworkSettings },
): Promise<SentResponse> {
  const url = new URL(built.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`url must be http or https to be sent (got ${url.protocol}).`);
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const contentType = Object.entries(built.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  const body =
    built.body === undefined
      ? undefined
      : isJson(contentType) || contentType === ''
        ? JSON.stringify(built.body)
        : String(built.body);
  const dispatcher = createDispatcher(options.network, url);
  try {
    return await exchange(built, url, body, signal, dispatcher);
  } catch (error) {
    if (deadline.aborted)
      throw new Error(
        `${built.method} ${url.origin}${url.pathname} got no complete answer within ${Math.round(options.timeoutMs / 1000)} s.`,
        { cause: error },
      );
    if (options.signal?.aborted) throw new Error('The request was cancelled.', { cause: error });
    const cause = messageOf(error);
    throw new Error(`${built.method} ${url.origin}${url.pathname} failed: ${cause}.`, { cause: error });
  } finally {
    void dispatcher.close();
  }
}

async function exchange(
  built: BuiltRequest,
  url: URL,
  body: string | undefined,
  signal: AbortSignal,
  dispatcher: Dispatcher,
): Promise<SentResponse> {
  const response = await http().request(url, {
    method: built.method as Dispatcher.HttpMethod,
    headers: built.headers,
    body,
    signal,
    dispatcher,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = await response.body.text();
  let parsed: Json | undefined = text === '' ? undefined : text;
  if (text !== '' && isJson(headers['content-type'] ?? '')) {
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = text;
    }
  }
  return { status: response.statusCode, headers, ...(parsed === undefined ? {} : { body: parsed }) };
}
