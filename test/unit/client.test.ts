import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { parseBaseUrl, sameBaseUrl } from '../../src/core/base-url';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { serviceRejection, json } from '../support/service-errors';
import { listenOnLoopback } from '../support/loopback';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** A loopback server whose behaviour each test sets; the client's transport is what is under test. */
async function serve(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  return listenOnLoopback(server);
}

const prompts = kindById('prompt');
const tenants = kindById('tenant');
const token = 'sentinel-token-4c1f';

describe('ServiceClient transport', () => {
  let server: { url: string; close: () => Promise<void> } | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  function connect(url: string, timeoutMs = 2000): ServiceClient {
    client = new ServiceClient({ baseUrl: url, token: () => token, timeoutMs });
    return client;
  }

  it('sends the bearer token, tenant_id query and wrapped JSON body, and accepts 201', async () => {
    const seen: { method?: string; url?: string; auth?: string; type?: string; body?: string } = {};
    server = await serve((req, res, body) => {
      Object.assign(seen, {
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      });
      json(res, 201, { id: 9, name: 'Greeting', status: 'created' });
    });
    const created = await connect(server.url).create(prompts, { name: 'Greeting' }, 2);
    assert.deepEqual(created, { id: 9, name: 'Greeting', status: 'created' });
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/api/v1/ai_prompts?tenant_id=2');
    assert.equal(seen.auth, `Bearer ${token}`);
    assert.equal(seen.type, 'application/json');
    assert.deepEqual(JSON.parse(seen.body ?? ''), { prompt: { name: 'Greeting' } });
  });

  it('keeps a path prefix of the baseUrl and sends no tenant_id for tenants', async () => {
    let url = '';
    server = await serve((req, res) => {
      url = req.url ?? '';
      json(res, 200, []);
    });
    await connect(`${server.url}/convai/`).list(tenants, 5);
    assert.equal(url, '/convai/api/v1/tenants');
  });

  it('refuses to send a tenant-scoped request that lacks the required tenant', async () => {
    server = await serve((_req, res) => json(res, 200, []));
    const error = await serviceRejection(connect(server.url).list(kindById('integration')));
    assert.match(error.message, /need a tenant/);
  });

  it('maps an HTTP error to a ServiceError with the service message and without the token', async () => {
    server = await serve((_req, res) => json(res, 422, { errors: { name: ["can't be blank"] } }));
    const error = await serviceRejection(connect(server.url).update(prompts, 3, { name: '' }, 1));
    assert.equal(error.status, 422);
    assert.match(error.message, /422 Unprocessable Entity: name: can't be blank/);
    assert.ok(!error.message.includes(token));
    assert.ok(!(error.stack ?? '').includes(token));
  });

  it('reports a success with a body that is not JSON', async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": 1, "na');
    });
    const error = await serviceRejection(connect(server.url).get(prompts, 1, 1));
    assert.equal(error.kind, 'response');
    assert.match(error.message, /answered 200 with a body that is not valid JSON \(content type application\/json\)/);
  });

  it('times out a body that stalls, within the one deadline', async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    });
    const error = await serviceRejection(connect(server.url, 300).list(prompts, 1));
    assert.equal(error.kind, 'timeout');
  });

  it('stops when the caller cancels', async () => {
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    server = await serve(() => arrived());
    const controller = new AbortController();
    const pending = serviceRejection(connect(server.url).list(prompts, 1, { signal: controller.signal }));
    await requestArrived;
    controller.abort();
    assert.equal((await pending).kind, 'cancelled');
  });

  it('names a refused connection', async () => {
    server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await serviceRejection(connect(url).list(prompts, 1));
    assert.equal(error.kind, 'network');
    assert.match(error.message, /connection was refused/);
  });

  it('does not send anything without a token', async () => {
    let requests = 0;
    server = await serve((_req, res) => {
      requests++;
      json(res, 200, []);
    });
    client = new ServiceClient({ baseUrl: server.url, token: () => undefined });
    const error = await serviceRejection(client.list(prompts, 1));
    assert.match(error.message, /no token is set/);
    assert.equal(requests, 0);
  });

  it('returns the delete status text', async () => {
    server = await serve((_req, res) => json(res, 200, { status: 'Prompt deleted successfully' }));
    assert.equal(await connect(server.url).delete(prompts, 4, 1), 'Prompt deleted successfully');
  });
});

describe('sameBaseUrl', () => {
  it("takes a trailing slash, a host's case and a default port for one service, and another path or port for another", () => {
    assert.ok(sameBaseUrl('https://convai.example.com/', 'https://CONVAI.example.com:443'));
    assert.ok(sameBaseUrl('http://127.0.0.1:8080/base/', 'http://127.0.0.1:8080/base'));
    assert.ok(!sameBaseUrl('http://127.0.0.1:8080/base', 'http://127.0.0.1:8080/other'));
    assert.ok(!sameBaseUrl('http://127.0.0.1:8080', 'http://127.0.0.1:9090'));
    assert.ok(!sameBaseUrl('not a url', 'not a url'));
  });
});

describe('parseBaseUrl', () => {
  it('accepts http and https URLs', () => {
    assert.equal(parseBaseUrl('https://config.example.com/base').pathname, '/base');
  });
  for (const [bad, why] of [
    ['config.example.com', /not a URL/],
    ['ftp://config.example.com', /http:\/\/ or https:\/\//],
    ['https://user:secret@config.example.com', /user name or password/],
    ['https://config.example.com/?x=1', /query or fragment/],
  ] as const) {
    it(`rejects ${bad}`, () => assert.throws(() => parseBaseUrl(bad), why));
  }
});
