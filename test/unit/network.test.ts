import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, ProxyAgent } from 'undici';
import {
  chooseProxy,
  createDispatcher,
  NetworkConfigError,
  parseProxyUrl,
  proxyFromEnvironment,
  proxyRoute,
  readCaCertificates,
  shouldBypassProxy,
  splitNoProxy,
} from '../../src/core/network';

describe('network: shouldBypassProxy (NO_PROXY semantics)', () => {
  const cases: ReadonlyArray<[string, string[], boolean]> = [
    ['https://config.example.com/', ['*'], true],
    ['https://config.example.com/', ['config.example.com'], true],
    ['https://config.example.com/', ['example.com'], true],
    ['https://config.example.com/', ['.example.com'], true],
    ['https://config.example.com/', ['*.example.com'], true],
    ['https://example.com/', ['.example.com'], true],
    ['https://badexample.com/', ['example.com'], false],
    ['https://example.com.evil.net/', ['example.com'], false],
    ['https://Config.Example.COM./', ['CONFIG.example.com'], true],
    ['https://config.example.com/', ['other.com', ' example.com '], true],
    ['https://config.example.com/', [], false],
    ['https://config.example.com/', [''], false],
    ['https://config.example.com:8443/', ['config.example.com:8443'], true],
    ['https://config.example.com:8443/', ['config.example.com:443'], false],
    ['https://config.example.com/', ['config.example.com:443'], true],
    ['http://config.example.com/', ['config.example.com:80'], true],
    ['http://127.0.0.1:3000/', ['127.0.0.1'], true],
    ['http://127.0.0.1:3000/', ['127.0.0.1:3000'], true],
    ['http://127.0.0.1:3000/', ['127.0.0.2'], false],
    ['http://10.1.2.3/', ['10.0.0.0/8'], true],
    ['http://11.1.2.3/', ['10.0.0.0/8'], false],
    ['http://1.1.1.1/', ['1.1'], false],
    ['http://[::1]:3000/', ['::1'], true],
    ['http://[::1]:3000/', ['[::1]:3000'], true],
    ['http://[::1]:3000/', ['0:0:0:0:0:0:0:1'], true],
    ['http://[fd00::5]/', ['fd00::/8'], true],
    ['http://[::1]/', ['127.0.0.1'], false],
    ['http://127.0.0.1/', ['localhost'], false],
    ['https://config.example.com/', ['https://config.example.com'], true],
    ['http://10.1.2.3/', ['10.0.0.0/99'], false],
  ];
  for (const [url, noProxy, expected] of cases) {
    it(`${expected ? 'bypasses' : 'proxies'} ${url} with ${JSON.stringify(noProxy)}`, () => {
      assert.equal(shouldBypassProxy(new URL(url), noProxy), expected);
    });
  }
});

describe('network: proxy from the environment and settings', () => {
  const https = new URL('https://config.example.com/');
  const http = new URL('http://config.example.com/');

  it('uses HTTPS_PROXY for https, falling back to HTTP_PROXY, upper case first', () => {
    assert.deepEqual(proxyFromEnvironment({ HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:1' }, https), {
      proxyUrl: 'http://a:1',
      proxySource: 'HTTPS_PROXY',
      noProxy: [],
    });
    assert.equal(proxyFromEnvironment({ https_proxy: 'http://b:1' }, https).proxySource, 'https_proxy');
    assert.equal(proxyFromEnvironment({ HTTP_PROXY: 'http://c:1' }, https).proxyUrl, 'http://c:1');
  });

  it('uses only HTTP_PROXY for http, and nothing when unset or blank', () => {
    assert.equal(
      proxyFromEnvironment({ HTTPS_PROXY: 'http://a:1', http_proxy: 'http://d:1' }, http).proxyUrl,
      'http://d:1',
    );
    assert.equal(proxyFromEnvironment({ HTTPS_PROXY: 'http://a:1' }, http).proxyUrl, undefined);
    assert.equal(proxyFromEnvironment({ HTTPS_PROXY: '  ' }, https).proxyUrl, undefined);
  });

  it('splits NO_PROXY on commas and spaces, preferring NO_PROXY to no_proxy', () => {
    assert.deepEqual(proxyFromEnvironment({ NO_PROXY: 'a.com, .b.org  10.0.0.0/8', no_proxy: 'x' }, https).noProxy, [
      'a.com',
      '.b.org',
      '10.0.0.0/8',
    ]);
    assert.deepEqual(proxyFromEnvironment({ no_proxy: 'x,,y' }, https).noProxy, ['x', 'y']);
    assert.deepEqual(splitNoProxy(''), []);
  });

  it('lets http.proxy and http.noProxy win over the environment, each on its own', () => {
    const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'config.example.com' };
    assert.deepEqual(chooseProxy({ proxy: 'http://setting:2', noProxy: [] }, env, https), {
      proxyUrl: 'http://setting:2',
      proxySource: 'http.proxy',
      noProxy: ['config.example.com'],
    });
    assert.deepEqual(chooseProxy({ proxy: 'http://setting:2', noProxy: ['other'] }, env, https).noProxy, ['other']);
    assert.equal(chooseProxy({ noProxy: [] }, env, https).proxySource, 'HTTPS_PROXY');
  });

  it('decides the route from HTTPS_PROXY and NO_PROXY together', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:3128', NO_PROXY: '.internal.corp' };
    const outside = chooseProxy({ noProxy: [] }, env, https);
    assert.equal(proxyRoute({ ...outside, proxyStrictSSL: true }, https)?.url, 'http://proxy.corp:3128');
    const inside = new URL('https://config.internal.corp/');
    assert.equal(proxyRoute({ ...chooseProxy({ noProxy: [] }, env, inside), proxyStrictSSL: true }, inside), undefined);
  });

  it('reads a proxy without a scheme as http, and names a bad one without its password', () => {
    assert.equal(parseProxyUrl('proxy.corp:3128').href, 'http://proxy.corp:3128/');
    assert.throws(
      () => parseProxyUrl('socks5://proxy.corp:1080', 'HTTPS_PROXY'),
      /HTTPS_PROXY must be an http:\/\/ or https:\/\/ proxy/,
    );
    assert.throws(
      () => parseProxyUrl('http://user:s3cret@[bad', 'http.proxy'),
      (error: Error) => {
        assert.ok(error instanceof NetworkConfigError);
        assert.match(error.message, /^http\.proxy "http:\/\/\[bad" is not a proxy address/);
        return true;
      },
    );
  });

  it('names the proxy for messages without its credentials', () => {
    const route = proxyRoute(
      { proxyUrl: 'http://user:s3cret@proxy.corp:3128', proxySource: 'http.proxy', noProxy: [], proxyStrictSSL: true },
      https,
    );
    assert.deepEqual([route?.url, route?.source], ['http://proxy.corp:3128', 'http.proxy']);
  });
});

describe('network: createDispatcher', () => {
  const target = new URL('https://config.example.com/');

  it('builds a ProxyAgent for a proxied target and an Agent otherwise', async () => {
    const proxied = createDispatcher({ proxyUrl: 'http://proxy.corp:3128', noProxy: [], proxyStrictSSL: true }, target);
    const bypassed = createDispatcher(
      { proxyUrl: 'http://proxy.corp:3128', noProxy: ['example.com'], proxyStrictSSL: true },
      target,
    );
    const direct = createDispatcher({ noProxy: [], proxyStrictSSL: false }, target);
    try {
      assert.ok(proxied instanceof ProxyAgent);
      assert.ok(bypassed instanceof Agent);
      assert.ok(direct instanceof Agent);
    } finally {
      await Promise.all([proxied.close(), bypassed.close(), direct.close()]);
    }
  });
});

describe('network: readCaCertificates', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'convai-ca-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the setting and the file that cannot be read', () => {
    const missing = join(dir, 'missing.pem');
    assert.throws(
      () => readCaCertificates([missing], 'convai.caCertificates'),
      (error: Error) => {
        assert.ok(error instanceof NetworkConfigError);
        assert.ok(error.message.startsWith(`convai.caCertificates: cannot read "${missing}" (ENOENT)`), error.message);
        assert.match(error.message, /correct the path or remove it/);
        return true;
      },
    );
  });

  it('refuses a file without a PEM certificate, and a damaged one', () => {
    const der = join(dir, 'ca.der');
    writeFileSync(der, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
    assert.throws(
      () => readCaCertificates([der], 'convai.caCertificates'),
      /convai\.caCertificates: ".*ca\.der" holds no PEM certificate/,
    );
    const damaged = join(dir, 'damaged.pem');
    writeFileSync(damaged, '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n');
    assert.throws(
      () => readCaCertificates([damaged], 'convai.caCertificates'),
      /"[^"]*damaged\.pem" holds a damaged certificate/,
    );
  });

  it('wants absolute paths and an array of strings, and skips blank entries', () => {
    assert.throws(
      () => readCaCertificates(['certs/ca.pem'], 'convai.caCertificates'),
      /"certs\/ca\.pem" is not an absolute path/,
    );
    assert.throws(() => readCaCertificates('/etc/ca.pem', 'convai.caCertificates'), /must be an array of paths/);
    assert.deepEqual(readCaCertificates(['', '  '], 'convai.caCertificates'), []);
  });
});
