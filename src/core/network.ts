/**
 * How requests reach the service on real networks. undici does not get VS
 * Code's proxy and certificate patches, so the client decides here itself:
 * which proxy (VS Code's http.* settings, else the environment), which hosts
 * skip it (NO_PROXY semantics), and which extra CA certificates to trust.
 * The decisions are pure functions; createDispatcher builds the undici pool.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type * as Net from 'node:net';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type * as Tls from 'node:tls';
import { http, type Dispatcher } from './http';
import type { ProxyRoute } from './network-errors';
import { LIMITS } from './limits';

// Required at first use, not with the module: a command that sends no request (a plan of a folder) needs neither.
/* eslint-disable @typescript-eslint/no-require-imports */
const net = (): typeof Net => require('node:net') as typeof Net;
const tls = (): typeof Tls => require('node:tls') as typeof Tls;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface NetworkSettings {
  /** The proxy for the service, from http.proxy or the environment; none when absent. */
  readonly proxyUrl?: string;
  /** Where proxyUrl came from (http.proxy, HTTPS_PROXY…), for messages. */
  readonly proxySource?: string;
  /** Hosts reached without the proxy: NO_PROXY entries. */
  readonly noProxy: readonly string[];
  /** Verify an https proxy's own certificate (http.proxyStrictSSL). The service's is always verified. */
  readonly proxyStrictSSL: boolean;
  /** Extra CA certificates (PEM text), trusted on top of Node's roots, for our requests only. */
  readonly ca?: readonly string[];
}

/** A wrong network setting, named with the setting and what to do. */
export class NetworkConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkConfigError';
  }
}

const KEEP_ALIVE = { keepAliveTimeout: LIMITS.keepAlive.value, connections: LIMITS.serviceConnections.value } as const;

/**
 * NO_PROXY semantics: `*` matches all; `host` and `.host` (or `*.host`) match
 * the host and its subdomains; `host:port` only that port; IPv4 and IPv6
 * addresses match exactly (however written) and `addr/prefix` by range.
 * Host names are never resolved, and an IP never matches a domain entry.
 */
export function shouldBypassProxy(url: URL, noProxy: readonly string[]): boolean {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy.some((entry) => matches(entry, host, port));
}

function matches(raw: string, host: string, port: string): boolean {
  const entry = raw
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/\/$/, '');
  if (entry === '*') return true;
  const { name, entryPort } = splitPort(entry);
  if (!name || (entryPort !== undefined && entryPort !== port)) return false;
  const family = net().isIP(host);
  if (family) return ipMatches(name, host, family === 6 ? 'ipv6' : 'ipv4');
  const domain = name.replace(/^\*?\./, '').replace(/\.$/, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/** `[v6]:port`, `host:port`, a bare IPv6 address or a host; a CIDR range keeps its `/prefix`. */
function splitPort(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1] ?? '', entryPort: bracketed[2] };
  const hostPort = /^([^:]*):(\d+)$/.exec(entry);
  if (hostPort) return { name: hostPort[1] ?? '', entryPort: hostPort[2] };
  return { name: entry };
}

function ipMatches(entry: string, ip: string, type: 'ipv4' | 'ipv6'): boolean {
  const [address = '', prefix] = entry.split('/');
  const entryFamily = net().isIP(address);
  if (!entryFamily || (entryFamily === 6) !== (type === 'ipv6')) return false;
  const list = new (net().BlockList)();
  if (prefix === undefined) {
    list.addAddress(address, type);
  } else {
    const bits = Number(prefix);
    if (!/^\d+$/.test(prefix) || bits > (type === 'ipv6' ? 128 : 32)) return false;
    list.addSubnet(address, bits, type);
  }
  return list.check(ip, type);
}

/** Splits NO_PROXY text: entries separated by commas or white space. */
export function splitNoProxy(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The environment's proxy for a target, as VS Code reads it: HTTPS_PROXY for
 * https (falling back to HTTP_PROXY), HTTP_PROXY for http; upper case first.
 */
export function proxyFromEnvironment(
  env: Environment,
  target: URL,
): { proxyUrl?: string; proxySource?: string; noProxy: string[] } {
  const names =
    target.protocol === 'https:'
      ? ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']
      : ['HTTP_PROXY', 'http_proxy'];
  const proxySource = names.find((name) => env[name]?.trim());
  const noProxy = splitNoProxy(env.NO_PROXY?.trim() || env.no_proxy || '');
  return proxySource ? { proxyUrl: env[proxySource]?.trim(), proxySource, noProxy } : { noProxy };
}

/** VS Code's settings win over the environment, each on its own: a proxy from http.proxy still honours NO_PROXY when http.noProxy is empty. */
export function chooseProxy(
  settings: { readonly proxy?: string; readonly noProxy: readonly string[] },
  env: Environment,
  target: URL,
): { proxyUrl?: string; proxySource?: string; noProxy: readonly string[] } {
  const fromEnv = proxyFromEnvironment(env, target);
  const noProxy = settings.noProxy.length > 0 ? settings.noProxy : fromEnv.noProxy;
  const proxy = settings.proxy?.trim();
  if (proxy) return { proxyUrl: proxy, proxySource: 'http.proxy', noProxy };
  return { ...fromEnv, noProxy };
}

/** The proxy address as a URL; `host:port` without a scheme means http, as curl reads it. */
export function parseProxyUrl(text: string, source = 'the proxy setting'): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new NetworkConfigError(
      `${source} "${withoutCredentials(text)}" is not a proxy address: use the form http://host:port.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkConfigError(`${source} must be an http:// or https:// proxy (got ${url.protocol}//).`);
  }
  return url;
}

/** A proxy URL fit for messages and logs: scheme, host and port, never its credentials. */
function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^/@]*@/, '//');
}

/** The proxy a request to `target` goes through, or undefined to go straight. */
export function proxyRoute(settings: NetworkSettings, target: URL): (ProxyRoute & { address: URL }) | undefined {
  if (!settings.proxyUrl || shouldBypassProxy(target, settings.noProxy)) return undefined;
  const source = settings.proxySource ?? 'the proxy setting';
  const address = parseProxyUrl(settings.proxyUrl, source);
  return { url: `${address.protocol}//${address.host}`, source, address };
}

/**
 * A keep-alive pool for requests to `target`: through a ProxyAgent (a CONNECT
 * tunnel for https, plain forwarding for http, as proxies expect) or straight.
 * Extra CAs are added to Node's roots for this pool only; the service's
 * certificate is always verified, and nothing global changes.
 */
export function createDispatcher(settings: NetworkSettings, target: URL): Dispatcher {
  const ca = settings.ca && settings.ca.length > 0 ? [...defaultCertificates(), ...settings.ca] : undefined;
  const route = proxyRoute(settings, target);
  if (!route) return new (http().Agent)({ ...KEEP_ALIVE, ...(ca ? { connect: { ca } } : {}) });
  return new (http().ProxyAgent)({
    ...KEEP_ALIVE,
    uri: route.address.href,
    proxyTunnel: target.protocol === 'https:',
    ...(ca ? { requestTls: { ca } } : {}),
    // Only the proxy's own certificate may go unverified, and only when the user says so.
    proxyTls: { rejectUnauthorized: settings.proxyStrictSSL, ...(ca ? { ca } : {}) },
  });
}

/**
 * The roots Node trusts by default. Node 22.15+ has getCACertificates, whose
 * 'default' also holds NODE_EXTRA_CA_CERTS; passing `ca` replaces the
 * defaults, so those must be kept. Older Node has only its bundled roots.
 */
function defaultCertificates(): readonly string[] {
  const withDefaults = tls() as typeof Tls & { getCACertificates?: (type: 'default') => string[] };
  return withDefaults.getCACertificates?.('default') ?? withDefaults.rootCertificates;
}

/**
 * Reads a list of PEM files. Throws a NetworkConfigError naming where the list
 * was given (`source`: a setting, a variable) and the file when one cannot be
 * read or holds no certificate, so a typo does not silently leave the CA untrusted.
 */
export function readCaCertificates(
  paths: unknown,
  source: string,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): string[] {
  if (!Array.isArray(paths) || !paths.every((p): p is string => typeof p === 'string')) {
    throw new NetworkConfigError(`${source} must be an array of paths to PEM files.`);
  }
  return paths
    .filter((p) => p.trim() !== '')
    .map((raw) => {
      const path = raw.trim().replace(/^~(?=$|[\\/])/, () => homedir());
      if (!isAbsolute(path)) {
        throw new NetworkConfigError(
          `${source}: "${raw}" is not an absolute path; use the full path, e.g. ${join(homedir(), 'company-ca.pem')}.`,
        );
      }
      let text: string;
      try {
        text = read(path);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new NetworkConfigError(
          `${source}: cannot read "${path}"${typeof code === 'string' ? ` (${code})` : ''}; correct the path or remove it.`,
        );
      }
      checkPem(text, path, source);
      return text;
    });
}

function checkPem(text: string, path: string, source: string): void {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new NetworkConfigError(
      `${source}: "${path}" holds no PEM certificate (-----BEGIN CERTIFICATE-----); export the CA as Base64 (PEM) and give that file instead.`,
    );
  }
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new NetworkConfigError(
        `${source}: "${path}" holds a damaged certificate; export the CA again as Base64 (PEM).`,
      );
    }
  }
}
