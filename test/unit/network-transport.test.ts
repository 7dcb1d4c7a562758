import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { getGlobalDispatcher, request } from 'undici';
import { VS_CODE_ADVICE } from '../../src/shared/advice';
import { ServiceClient } from '../../src/core/client';
import type { Logger } from '../../src/core/logger';
import { readCaCertificates, type NetworkSettings } from '../../src/core/network';
import { kindById } from '../../src/core/resources';
import { serviceRejection } from '../support/service-errors';
import { listenOnLoopback } from '../support/loopback';

/**
 * Real sockets end to end: a throwaway CA made with the openssl CLI, an
 * https service with a certificate it signed, and a forward/CONNECT proxy.
 * The client cannot resolve "convai.test"; only the proxy maps it to the
 * loopback address, so a success through that name proves the route.
 */
const SERVICE_HOST = 'convai.test';
const token = 'sentinel-token-9d2e';
const tenants = kindById('tenant');

interface Certificates {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  leaf: string;
  /** Signed by the CA, but for another host name only. */
  otherLeaf: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'convai-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=ConvAI Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(dir, ['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=convai.test']);
  const sign = (ext: string, out: string): void => {
    writeFileSync(
      join(dir, `${out}.cnf`),
      `subjectAltName=${ext}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
    );
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-out',
      out,
      '-extfile',
      `${out}.cnf`,
    ]);
  };
  sign(`DNS:${SERVICE_HOST},DNS:localhost,IP:127.0.0.1`, 'leaf.pem');
  sign('DNS:elsewhere.test', 'other.pem');
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    ca: read('ca.pem'),
    key: read('leaf.key'),
    leaf: read('leaf.pem'),
    otherLeaf: read('other.pem'),
  };
}

interface Running {
  port: number;
  close(): Promise<void>;
}

/** A service answering every request with an empty JSON array, counting them. */
async function startService(
  create: (handler: http.RequestListener) => http.Server,
): Promise<Running & { requests: number }> {
  const state = { requests: 0 };
  const server = create((_req, res) => {
    state.requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  return Object.assign(state, await listenOnLoopback(server));
}

interface Proxy extends Running {
  url: string;
  /** "CONNECT host:port" for tunnels, "GET http://…" for forwarded requests. */
  seen: string[];
  /** The Proxy-Authorization header of each request, if any. */
  credentials: (string | undefined)[];
}

/** A forward proxy (absolute-URI requests) and CONNECT tunnel; it alone resolves SERVICE_HOST. */
async function startProxy(requiredCredentials?: string): Promise<Proxy> {
  const seen: string[] = [];
  const credentials: (string | undefined)[] = [];
  const tunnels = new Set<net.Socket>();
  const resolve = (host: string): string => (host === SERVICE_HOST ? '127.0.0.1' : host);
  const allowed = (req: http.IncomingMessage): boolean => {
    credentials.push(req.headers['proxy-authorization']);
    return (
      !requiredCredentials ||
      req.headers['proxy-authorization'] === `Basic ${Buffer.from(requiredCredentials).toString('base64')}`
    );
  };
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: resolve(target.hostname),
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    tunnels.add(socket);
    socket.on('error', () => socket.destroy());
    if (!allowed(req)) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), resolve(host), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    tunnels.add(upstream);
    upstream.on('error', () => socket.destroy());
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    seen,
    credentials,
    close: async () => {
      for (const socket of tunnels) socket.destroy();
      await listening.close();
    },
  };
}

function recordingLog(lines: string[]): Logger {
  const add = (message: string | Error): void => void lines.push(String(message));
  return { trace: add, debug: add, info: add, warn: add, error: add };
}

describe('network: TLS with a private CA and proxies, over real sockets', function () {
  this.timeout(10_000);
  let certs: Certificates;
  const cleanups: (() => Promise<void>)[] = [];
  const clients: ServiceClient[] = [];
  const globalsBefore = {
    rejectUnauthorized: process.env.NODE_TLS_REJECT_UNAUTHORIZED,
    roots: tls.rootCertificates.length,
    dispatcher: getGlobalDispatcher(),
    httpsCa: https.globalAgent.options.ca,
  };

  before(function () {
    try {
      execFileSync('openssl', ['version'], { stdio: 'pipe' });
    } catch {
      assert.fail(
        'The openssl CLI is needed to make a throwaway CA for these tests; install it (apt-get install openssl).',
      );
    }
    certs = makeCertificates();
  });
  after(() => rmSync(certs.dir, { recursive: true, force: true }));
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function client(baseUrl: string, network: Partial<NetworkSettings>, log?: Logger): ServiceClient {
    const made = new ServiceClient({
      name: 'corp',
      baseUrl,
      token: () => token,
      timeoutMs: 5000,
      network: () => ({ noProxy: [], proxyStrictSSL: true, ...network }),
      retry: { delaysMs: [] },
      // The proxy and CA settings these tests stand for are VS Code's, so are the fixes named.
      advice: VS_CODE_ADVICE,
      log,
    });
    clients.push(made);
    return made;
  }

  async function tlsService(cert = certs.leaf): Promise<Running & { requests: number }> {
    const service = await startService((handler) => https.createServer({ key: certs.key, cert }, handler));
    cleanups.push(service.close);
    return service;
  }

  async function proxy(requiredCredentials?: string): Promise<Proxy> {
    const started = await startProxy(requiredCredentials);
    cleanups.push(started.close);
    return started;
  }

  it('refuses a certificate from an unknown CA, naming the problem and the fix', async () => {
    const service = await tlsService();
    const error = await serviceRejection(client(`https://127.0.0.1:${service.port}`, {}).list(tenants));
    assert.equal(error.kind, 'network');
    assert.match(
      error.message,
      /^corp: GET \/api\/v1\/tenants failed: the server's TLS certificate could not be verified/,
    );
    assert.match(
      error.message,
      /if the service uses a private or company CA, add its PEM file to the convai\.caCertificates setting\.$/,
    );
    assert.equal(service.requests, 0);
  });

  it('names an untrusted self-signed CA sent in the chain', async () => {
    const service = await tlsService(`${certs.leaf}${certs.ca}`);
    const error = await serviceRejection(client(`https://127.0.0.1:${service.port}`, {}).list(tenants));
    assert.match(error.message, /chain ends in a self-signed CA that is not trusted; .*convai\.caCertificates/);
  });

  it('trusts the CA from convai.caCertificates for this client only, changing nothing global', async () => {
    const service = await tlsService();
    const url = `https://127.0.0.1:${service.port}`;
    assert.deepEqual(await client(url, { ca: readCaCertificates([certs.caFile], 'the test CAs') }).list(tenants), []);
    assert.equal(service.requests, 1);
    assert.equal(process.env.NODE_TLS_REJECT_UNAUTHORIZED, globalsBefore.rejectUnauthorized);
    assert.equal(tls.rootCertificates.length, globalsBefore.roots);
    assert.ok(!tls.rootCertificates.includes(certs.ca.trim()));
    assert.equal(getGlobalDispatcher(), globalsBefore.dispatcher);
    assert.equal(https.globalAgent.options.ca, globalsBefore.httpsCa);
    await assert.rejects(request(`${url}/api/v1/tenants`), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    assert.match(
      (await serviceRejection(client(url, {}).list(tenants))).message,
      /convai\.caCertificates/,
      'another client does not trust it',
    );
  });

  it('still checks the host name with the CA trusted', async () => {
    const service = await tlsService(certs.otherLeaf);
    const error = await serviceRejection(client(`https://127.0.0.1:${service.port}`, { ca: [certs.ca] }).list(tenants));
    assert.match(
      error.message,
      /TLS certificate is not for this host name; use a host name that the certificate names/,
    );
  });

  it('tunnels https through the proxy with CONNECT, keeping the certificate check', async () => {
    const service = await tlsService();
    const through = await proxy();
    const baseUrl = `https://${SERVICE_HOST}:${service.port}`;
    assert.deepEqual(await client(baseUrl, { proxyUrl: through.url, ca: [certs.ca] }).list(tenants), []);
    assert.deepEqual(through.seen, [`CONNECT ${SERVICE_HOST}:${service.port}`]);
    const untrusted = await serviceRejection(
      client(baseUrl, { proxyUrl: through.url, proxySource: 'HTTPS_PROXY' }).list(tenants),
    );
    assert.match(
      untrusted.message,
      new RegExp(`failed through the proxy ${through.url}: the server's TLS certificate could not be verified`),
    );
  });

  it('forwards http through the proxy as an absolute-URI request', async () => {
    const service = await startService((handler) => http.createServer(handler));
    cleanups.push(service.close);
    const through = await proxy();
    assert.deepEqual(
      await client(`http://${SERVICE_HOST}:${service.port}`, { proxyUrl: through.url }).list(tenants),
      [],
    );
    assert.deepEqual(through.seen, [`GET http://${SERVICE_HOST}:${service.port}/api/v1/tenants`]);
    assert.equal(service.requests, 1);
  });

  it('goes straight to a host in noProxy', async () => {
    const service = await startService((handler) => http.createServer(handler));
    cleanups.push(service.close);
    const through = await proxy();
    const direct = client(`http://127.0.0.1:${service.port}`, { proxyUrl: through.url, noProxy: ['127.0.0.1'] });
    assert.deepEqual(await direct.list(tenants), []);
    assert.deepEqual(through.seen, []);
    assert.equal(service.requests, 1);
  });

  it('sends the proxy credentials of the proxy URL and never logs or reports them', async () => {
    const service = await tlsService();
    const through = await proxy('alice:pa55word');
    const baseUrl = `https://${SERVICE_HOST}:${service.port}`;
    const lines: string[] = [];
    const refused = await serviceRejection(
      client(baseUrl, { proxyUrl: through.url, proxySource: 'http.proxy', ca: [certs.ca] }, recordingLog(lines)).list(
        tenants,
      ),
    );
    assert.match(
      refused.message,
      /the proxy asked for credentials \(407 Proxy Authentication Required\); put them in http\.proxy/,
    );
    const withCredentials = `http://alice:pa55word@127.0.0.1:${through.port}`;
    assert.deepEqual(
      await client(
        baseUrl,
        { proxyUrl: withCredentials, proxySource: 'http.proxy', ca: [certs.ca] },
        recordingLog(lines),
      ).list(tenants),
      [],
    );
    assert.equal(through.credentials.at(-1), `Basic ${Buffer.from('alice:pa55word').toString('base64')}`);
    assert.ok(
      lines.some((line) => line.includes(`through the proxy http://127.0.0.1:${through.port}`)),
      lines.join('\n'),
    );
    assert.ok(!lines.join('\n').includes('pa55word') && !refused.message.includes('pa55word'));
    assert.ok(!lines.join('\n').includes(token));
  });

  it('names the proxy when it refuses the connection', async () => {
    const closed = await startProxy();
    await closed.close();
    const error = await serviceRejection(
      client('https://config.example.com', { proxyUrl: closed.url, proxySource: 'http.proxy' }).list(tenants),
    );
    assert.equal(
      error.message,
      `corp: GET /api/v1/tenants failed through the proxy ${closed.url}: the connection was refused; check that the proxy is running and http.proxy is right.`,
    );
  });

  it('fails a request unsent, naming the setting and the file, when a CA file is missing', async () => {
    const service = await tlsService();
    const missing = join(certs.dir, 'no-such-ca.pem');
    const unsent = new ServiceClient({
      name: 'corp',
      baseUrl: `https://127.0.0.1:${service.port}`,
      token: () => token,
      network: () => ({
        noProxy: [],
        proxyStrictSSL: true,
        ca: readCaCertificates([missing], 'convai.caCertificates'),
      }),
    });
    clients.push(unsent);
    const error = await serviceRejection(unsent.list(tenants));
    assert.equal(
      error.message,
      `corp: GET /api/v1/tenants was not sent: convai.caCertificates: cannot read "${missing}" (ENOENT); correct the path or remove it.`,
    );
    assert.equal(service.requests, 0);
  });

  it('fails a request unsent when the proxy setting is not an address', async () => {
    const error = await serviceRejection(
      client('https://config.example.com', { proxyUrl: 'http://[bad', proxySource: 'http.proxy' }).list(tenants),
    );
    assert.match(
      error.message,
      /^corp: GET \/api\/v1\/tenants was not sent: http\.proxy "http:\/\/\[bad" is not a proxy address/,
    );
  });
});
