import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { ServiceClient } from '../../src/core/client';
import type { RetryOptions } from '../../src/core/retry';
import { retryAfterMs } from '../../src/core/responses';
import { RequestBudget } from '../../src/core/request-budget';
import type { Logger } from '../../src/core/logger';
import { kindById } from '../../src/core/resources';
import { serviceRejection, json } from '../support/service-errors';
import { listenOnLoopback } from '../support/loopback';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, count: number) => void;

interface Server {
  url: string;
  requests: number;
  /** Resolves when the server's side of a connection closes. */
  socketClosed: Promise<void>;
  close(): Promise<void>;
}

/** A loopback server that counts requests; each test sets its answers. */
async function serve(handler: Handler): Promise<Server> {
  let closed: () => void = () => undefined;
  const state = { requests: 0, socketClosed: new Promise<void>((resolve) => (closed = resolve)) };
  const server = http.createServer((req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => handler(req, res, state.requests));
  });
  server.on('connection', (socket: Socket) => socket.on('close', () => closed()));
  return Object.assign(state, await listenOnLoopback(server));
}

const prompts = kindById('prompt');
const token = 'sentinel-token-77aa';

describe('ServiceClient: retries of reads', () => {
  let server: Server | undefined;
  let client: ServiceClient | undefined;
  /** The waits the client asked for, in order; the injected sleep returns at once. */
  let waits: number[];
  let warnings: string[];
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });
  beforeEach(() => {
    waits = [];
    warnings = [];
  });

  function connect(
    url: string,
    options: { timeoutMs?: number; retry?: RetryOptions; budget?: RequestBudget } = {},
  ): ServiceClient {
    const log: Logger = {
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => void warnings.push(m),
      error: () => undefined,
    };
    client = new ServiceClient({
      name: 'local',
      baseUrl: url,
      token: () => token,
      timeoutMs: options.timeoutMs ?? 5000,
      retry: options.retry ?? { sleep: async (ms) => void waits.push(ms) },
      log,
      budget: options.budget,
    });
    return client;
  }

  it('repeats a GET answered 503 twice, with the default backoff, and logs each retry', async () => {
    server = await serve((_req, res, count) =>
      count < 3 ? json(res, 503, { error: 'warming up' }) : json(res, 200, [{ id: 1 }]),
    );
    assert.deepEqual(await connect(server.url).list(prompts, 1), [{ id: 1 }]);
    assert.equal(server.requests, 3);
    assert.deepEqual(waits, [250, 1000]);
    assert.equal(warnings.length, 2);
    assert.match(
      warnings[0] ?? '',
      /^GET \/api\/v1\/ai_prompts\?tenant_id=1: the service answered 503 Service Unavailable; retrying in 250 ms \(attempt 2 of 3\)$/,
    );
  });

  it('gives up after three attempts, saying so', async () => {
    server = await serve((_req, res) => json(res, 502, { error: 'upstream down' }));
    const error = await serviceRejection(connect(server.url).get(prompts, 4, 1));
    assert.equal(server.requests, 3);
    assert.equal(error.status, 502);
    assert.equal(error.attempts, 3);
    assert.equal(
      error.message,
      "local: GET /api/v1/ai_prompts/4?tenant_id=1 failed with 502 Bad Gateway: upstream down. A gateway or proxy in front of the service got no usable answer from it; try again later, or ask the service's administrator if it lasts. Gave up after 3 attempts.",
    );
  });

  it('waits as long as Retry-After asks, in seconds or as an HTTP date', async () => {
    server = await serve((_req, res, count) =>
      count === 1 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, { id: 1 }),
    );
    assert.deepEqual(await connect(server.url).get(prompts, 1, 1), { id: 1 });
    assert.deepEqual(waits, [1000]);
    assert.equal(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 5)).toUTCString(), Date.UTC(2030, 0, 1)), 5000);
    assert.equal(retryAfterMs('Wed, 01 Jan 2020 00:00:00 GMT', Date.UTC(2030, 0, 1)), 0);
    assert.equal(retryAfterMs('soon', 0), undefined);
    assert.equal(retryAfterMs(undefined, 0), undefined);
  });

  it('counts every request it sends, reads and retries included, and sends no retry of an operation past the bound', async () => {
    server = await serve((req, res) =>
      req.method === 'GET' ? json(res, 503, {}) : json(res, 429, { error: 'slow down' }, { 'retry-after': '0' }),
    );
    const budget = new RequestBudget(1);
    const kind = kindById('prompt');
    await serviceRejection(connect(server.url, { budget }).list(kind, 1));
    const refused = await serviceRejection(
      connect(server.url, { budget }).testPrompt(kind, 3, 1, { prompt_text: 'hi' }),
    );
    assert.equal(server.requests, 4, 'a listing sent three times, the operation once');
    assert.deepEqual([budget.sent, budget.spent], [4, 1]);
    assert.equal(refused.status, 429);
    assert.match(
      refused.message,
      /429 Too Many Requests: slow down\. .*It was not sent again: the run has sent as many requests that run a test or write as its limit allows \(1, each retry counted\)\.$/,
    );
    const unsent = await serviceRejection(
      connect(server.url, { budget }).testPrompt(kind, 3, 1, { prompt_text: 'again' }),
    );
    assert.equal(server.requests, 4);
    assert.match(
      unsent.message,
      /POST \/api\/v1\/ai_prompts\/3\/test_prompt\?tenant_id=1 was not sent: the run has sent as many requests that run a test or write as its limit allows \(1/,
    );
    assert.equal(budget.sent, 4);
  });

  it('sends the retry of a 429 within the bound, and counts it', async () => {
    server = await serve((_req, res, count) =>
      count === 1 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, { response: 'ok' }),
    );
    const budget = new RequestBudget(2);
    assert.deepEqual(
      await connect(server.url, { budget }).testPrompt(kindById('prompt'), 3, 1, { prompt_text: 'hi' }),
      { response: 'ok' },
    );
    assert.deepEqual([server.requests, budget.sent, budget.spent], [2, 2, 2]);
  });

  it('fails at once when Retry-After asks for longer than it waits, naming the wait', async () => {
    server = await serve((_req, res) => json(res, 429, { error: 'quota' }, { 'retry-after': '3600' }));
    const error = await serviceRejection(connect(server.url).list(prompts, 1));
    assert.equal(server.requests, 1);
    assert.deepEqual(waits, []);
    assert.equal(error.status, 429);
    assert.match(
      error.message,
      /429 Too Many Requests: quota\. .*The service asked to wait 3600 s before trying again, longer than the 10 s the client waits at most\.$/,
    );
  });

  it('repeats a GET whose connection was dropped', async () => {
    server = await serve((req, res, count) => (count === 1 ? req.socket.destroy() : json(res, 200, [])));
    assert.deepEqual(await connect(server.url).list(prompts, 1), []);
    assert.equal(server.requests, 2);
    assert.deepEqual(waits, [250]);
    assert.match(warnings.at(-1) ?? '', /the connection closed before the answer; retrying in 250 ms/);
  });

  it('never repeats a PUT answered 503 or dropped', async () => {
    server = await serve((_req, res) => json(res, 503, { error: 'busy' }));
    const busy = await serviceRejection(connect(server.url).update(prompts, 3, { name: 'x' }, 1));
    assert.equal(server.requests, 1);
    assert.equal(busy.status, 503);
    assert.equal(busy.attempts, undefined);
    await client?.close();
    await server.close();

    server = await serve((req) => req.socket.destroy());
    const dropped = await serviceRejection(connect(server.url).update(prompts, 3, { name: 'x' }, 1));
    assert.equal(server.requests, 1);
    assert.equal(dropped.kind, 'network');
    assert.match(
      dropped.message,
      /^local: PUT \/api\/v1\/ai_prompts\/3\?tenant_id=1 failed: the service closed the connection before it answered; try again\.$/,
    );
    assert.deepEqual(waits, []);
  });

  it('never repeats an operation (POST) or a DELETE', async () => {
    server = await serve((_req, res) => json(res, 503, {}));
    const kind = kindById('prompt');
    await serviceRejection(connect(server.url).testPrompt(kind, 3, 1, { prompt_text: 'hi' }));
    await serviceRejection(connect(server.url).delete(kind, 3, 1));
    assert.equal(server.requests, 2);
  });

  it('does not start a retry that the deadline leaves no time for', async () => {
    server = await serve((_req, res) => json(res, 503, { error: 'down' }));
    // A wait for the retry would outlast the test's time-out; what it answers says it did not wait.
    const error = await serviceRejection(
      connect(server.url, { timeoutMs: 2000, retry: { delaysMs: [60_000] } }).list(prompts, 1),
    );
    assert.equal(server.requests, 1);
    assert.equal(error.status, 503);
    assert.match(error.message, /No time was left within the 2 s deadline to try again\.$/);
  });

  it('ends the backoff at the deadline', async () => {
    server = await serve((_req, res) => json(res, 503, {}));
    const untilAborted = (_ms: number, signal: AbortSignal): Promise<void> =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const error = await serviceRejection(
      connect(server.url, { timeoutMs: 300, retry: { delaysMs: [100], sleep: untilAborted } }).list(prompts, 1),
    );
    assert.equal(error.kind, 'timeout');
    assert.equal(server.requests, 1);
  });

  it('ends the backoff when the caller cancels', async () => {
    server = await serve((_req, res) => json(res, 503, {}));
    let backingOff: () => void = () => undefined;
    const inBackoff = new Promise<void>((resolve) => (backingOff = resolve));
    const sleep = (_ms: number, signal: AbortSignal): Promise<void> => {
      backingOff();
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    };
    const controller = new AbortController();
    const pending = serviceRejection(
      connect(server.url, { retry: { sleep } }).list(prompts, 1, { signal: controller.signal }),
    );
    await inBackoff;
    controller.abort();
    const error = await pending;
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.message, 'local: GET /api/v1/ai_prompts?tenant_id=1 was cancelled.');
    assert.equal(server.requests, 1);
  });
});

describe('ServiceClient: deadline, cancellation and logging', () => {
  let server: Server | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it('closes the socket when the caller cancels', async () => {
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    server = await serve(() => arrived());
    client = new ServiceClient({ baseUrl: server.url, token: () => token });
    const controller = new AbortController();
    const pending = serviceRejection(client.list(prompts, 1, { signal: controller.signal }));
    await requestArrived;
    controller.abort();
    assert.equal((await pending).kind, 'cancelled');
    await server.socketClosed;
  });

  it('closes the socket when the deadline passes while the body stalls', async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    });
    client = new ServiceClient({ baseUrl: server.url, token: () => token, timeoutMs: 200 });
    assert.equal((await serviceRejection(client.list(prompts, 1))).kind, 'timeout');
    await server.socketClosed;
    assert.equal(server.requests, 1, 'a timed-out read is not repeated');
  });

  it('traces method, path and headers with the token redacted, and the answer', async () => {
    server = await serve((_req, res) => json(res, 201, { id: 1 }));
    const lines: { level: string; message: string }[] = [];
    const at =
      (level: string) =>
      (message: string | Error): void =>
        void lines.push({ level, message: String(message) });
    client = new ServiceClient({
      baseUrl: server.url,
      token: () => token,
      log: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    });
    await client.create(prompts, { name: 'x' }, 1);
    const traces = lines.filter((l) => l.level === 'trace').map((l) => l.message);
    assert.equal(
      traces[0],
      'POST /api/v1/ai_prompts?tenant_id=1 authorization: Bearer [redacted], accept: application/json, content-type: application/json',
    );
    assert.match(traces[1] ?? '', /^POST \/api\/v1\/ai_prompts\?tenant_id=1 ← 201 application\/json, 8 characters$/);
    assert.ok(lines.some((l) => l.level === 'info' && /→ 201 \(\d+ ms\)$/.test(l.message)));
    assert.ok(lines.every((l) => !l.message.includes(token)));
  });

  it('keeps the token out of an error whose page echoes the request', async () => {
    server = await serve((req, res) =>
      json(res, 500, { error: `bad request from ${req.headers.authorization ?? ''}` }),
    );
    client = new ServiceClient({ baseUrl: server.url, token: () => token });
    const error = await serviceRejection(client.get(prompts, 1, 1));
    assert.match(error.message, /500 Internal Server Error: bad request from Bearer \[redacted\]\./);
    assert.ok(!error.message.includes(token) && !(error.serviceMessage ?? '').includes(token));
  });

  it("leaves the service's words whole when the token is a few characters, which are no secret", async () => {
    server = await serve((_req, res) => json(res, 422, { error: 'mode: prompt is deactivated' }));
    client = new ServiceClient({ baseUrl: server.url, token: () => 't' });
    const error = await serviceRejection(client.get(prompts, 1, 1));
    assert.match(error.message, /422 Unprocessable Entity: mode: prompt is deactivated/);
  });

  it('does not follow a redirect, naming where it points', async () => {
    server = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://new.example.com/api/v1/ai_prompts' });
      res.end();
    });
    client = new ServiceClient({ name: 'local', baseUrl: server.url, token: () => token });
    const error = await serviceRejection(client.list(prompts, 1));
    assert.equal(server.requests, 1);
    assert.equal(error.status, 301);
    assert.equal(error.remedy, 'baseUrl');
    assert.match(
      error.message,
      /was redirected \(301 Moved Permanently\) to https:\/\/new\.example\.com\/api\/v1\/ai_prompts\. .*change the base URL\.$/,
    );
  });
});
