/** Reading request bodies and writing replies on node:http. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Json } from '../../src/core/json';
import { parseJson } from './json';
import { badRequest, HttpError, type Reply } from './replies';

const BODY_LIMIT_BYTES = 25 * 1024 * 1024;

function tooLarge(): HttpError {
  // Closing the connection spares reading the rest of an oversized upload.
  return new HttpError(413, { error: `request body exceeds ${BODY_LIMIT_BYTES} bytes` }, { connection: 'close' });
}

/** The parsed JSON body; undefined when the body is empty. */
export async function readJsonBody(request: IncomingMessage): Promise<Json | undefined> {
  const text = await readText(request);
  if (text.trim() === '') {
    return undefined;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    throw badRequest(`malformed JSON in request body: ${parsed.message}`);
  }
  return parsed.value;
}

function readText(request: IncomingMessage): Promise<string> {
  if (Number(request.headers['content-length']) > BODY_LIMIT_BYTES) {
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        request.off('data', onData);
        reject(tooLarge());
      } else {
        chunks.push(chunk);
      }
    };
    request.on('data', onData);
    // A client gone mid-upload never sends 'end'; settle so nothing waits forever.
    const incomplete = (): void => reject(badRequest('request body incomplete: the client closed the connection'));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', incomplete);
    request.on('close', incomplete);
  });
}

/**
 * Sends the reply. With `stallMs` the headers and the first half of the body
 * go out at once and the rest after the wait, so clients see a slow body.
 */
export async function writeReply(
  response: ServerResponse,
  reply: Reply,
  stallMs: number | undefined,
  signal: AbortSignal,
): Promise<void> {
  const body = Buffer.from(reply.body, 'utf8');
  response.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  if (stallMs === undefined) {
    response.end(body);
    return;
  }
  response.flushHeaders();
  const half = Math.floor(body.length / 2);
  response.write(body.subarray(0, half));
  await sleep(stallMs, undefined, { signal });
  response.end(body.subarray(half));
}
