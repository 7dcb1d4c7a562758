/**
 * What the commands share: the token from the environment, the folder from
 * the one positional argument, a client for a base URL that says its fixes in
 * a terminal's words, and the manifest of a pulled folder.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Advice } from '../core/advice';
import { parseBaseUrl, sameBaseUrl } from '../core/base-url';
import { ServiceClient } from '../core/client';
import { LIMITS } from '../core/limits';
import type { RequestBudget } from '../core/request-budget';
import { DiskFolder } from '../core/tenant/disk-folder';
import type { FolderIO } from '../core/tenant/folder-io';
import { loadManifest, MANIFEST_FILE, type LoadedManifest, type Manifest } from '../core/tenant/manifest';
import { PROGRAM, UsageError, type CliContext, type ParsedArgs } from './command';
import { messageOf } from '../core/text';

export const TOKEN_VARIABLE = 'CONVAI_TOKEN';
/** The service's base URL for `test`, and for plan and push the one their folder's manifest must name. */
export const URL_VARIABLE = 'CONVAI_URL';
export const TIMEOUT_VARIABLE = 'CONVAI_TIMEOUT_SECONDS';
/** Node reads this file of extra CAs at start; the client's connections trust them, as they use Node's default roots. */
export const CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';
/** As the extension's setting convai.requestTimeoutSeconds: its bounds. */
export const TIMEOUT_SECONDS = {
  min: LIMITS.requestTimeout.setting.minimum,
  max: LIMITS.requestTimeout.setting.maximum,
};
/** Where plan and push take the base URL from. */
export const MANIFEST_URL = `baseUrl in the folder's ${MANIFEST_FILE}`;

/** The token, only ever from the environment: an argument would land in shell history and CI logs. */
export function tokenFrom(env: NodeJS.ProcessEnv): string {
  const token = env[TOKEN_VARIABLE]?.trim();
  if (!token)
    throw new UsageError(
      `${TOKEN_VARIABLE} is not set: put the service's token in the environment variable ${TOKEN_VARIABLE} (a secret in CI).`,
    );
  // Sent as is, such a token fails every request as a network error, which points the wrong way.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(token))
    throw new UsageError(
      `${TOKEN_VARIABLE} holds a space, a line break or a control character, which no token has: put the token alone in it (did a command that set it print two lines?).`,
    );
  return token;
}

/** The service a command that has no folder talks to: --url, else the environment variable CONVAI_URL. */
export function urlTarget(flag: string | undefined, env: NodeJS.ProcessEnv, command: string): ServiceTarget {
  if (flag !== undefined)
    return { baseUrl: baseUrlFrom(flag.trim(), '--url'), urlSource: '--url', token: tokenFrom(env) };
  const variable = env[URL_VARIABLE]?.trim();
  if (!variable)
    throw new UsageError(
      `${command} needs the service's base URL: pass --url <base URL> or set the environment variable ${URL_VARIABLE}.`,
    );
  return { baseUrl: baseUrlFrom(variable, URL_VARIABLE), urlSource: URL_VARIABLE, token: tokenFrom(env) };
}

/** The single folder argument, resolved against the working directory. */
export function folderArgument(args: ParsedArgs, context: CliContext, command: string): string {
  const [folder, ...extra] = args.positionals;
  if (folder === undefined || folder === '')
    throw new UsageError(`${command} needs a folder: ${PROGRAM} ${command} … <folder>.`);
  if (extra.length > 0)
    throw new UsageError(
      `${command} takes one folder, but got also ${extra.map((e) => `"${e}"`).join(', ')}; quote a path that holds spaces.`,
    );
  return path.resolve(context.cwd, folder);
}

/** The base URL, checked before any request, so a typo is a usage error and not a failed request. */
export function baseUrlFrom(value: string, source: string): string {
  try {
    parseBaseUrl(value, cliAdvice(source));
  } catch (error) {
    throw new UsageError(`${source}: ${messageOf(error)}`);
  }
  return value;
}

/** The service a command talks to, and where its base URL was given, for the messages that ask to check it. */
export interface ServiceTarget {
  readonly baseUrl: string;
  /** --url, CONVAI_URL or MANIFEST_URL. */
  readonly urlSource: string;
  readonly token: string;
}

const DIRECT = 'the CLI connects directly, not through a proxy';

/** The core's fixes in a terminal's words: environment variables and flags, never a VS Code setting or command. */
export function cliAdvice(urlSource: string): Advice {
  return {
    token: `set the environment variable ${TOKEN_VARIABLE} to a valid token for this service`,
    access: `set ${TOKEN_VARIABLE} to a token with access to it`,
    refresh: 'check that it still exists on the service',
    baseUrl: `the base URL (${urlSource})`,
    timeout: `the environment variable ${TIMEOUT_VARIABLE} (seconds, ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max})`,
    caCertificates: `point the environment variable ${CA_VARIABLE} to its PEM file`,
    proxy: `note that ${DIRECT}`,
    proxyCredentials: `${DIRECT} and cannot give a proxy credentials; check the network`,
    proxyStrictSSL: `check the network (${DIRECT})`,
    noProxy: `check the network (${DIRECT})`,
  };
}

/** The request deadline from CONVAI_TIMEOUT_SECONDS, checked before any request; the client's default when unset. */
export function timeoutMsFrom(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[TIMEOUT_VARIABLE]?.trim();
  if (!text) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= TIMEOUT_SECONDS.min && seconds <= TIMEOUT_SECONDS.max)) {
    throw new UsageError(
      `${TIMEOUT_VARIABLE} "${text}" is not a request time-out: give a number of seconds from ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}, e.g. ${TIMEOUT_VARIABLE}=60.`,
    );
  }
  return seconds * 1000;
}

/** `budget`: counts what the client sends and holds a run to its bound (test). */
export function clientFor(target: ServiceTarget, env: NodeJS.ProcessEnv, budget?: RequestBudget): ServiceClient {
  const { baseUrl, urlSource, token } = target;
  return new ServiceClient({
    baseUrl,
    token: () => token,
    timeoutMs: timeoutMsFrom(env),
    advice: cliAdvice(urlSource),
    budget,
  });
}

/** Runs `work` with a client whose connection pool is closed afterwards, so the process can exit. */
export async function withClient<T>(
  target: ServiceTarget,
  env: NodeJS.ProcessEnv,
  work: (client: ServiceClient) => Promise<T>,
  budget?: RequestBudget,
): Promise<T> {
  const client = clientFor(target, env, budget);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

export interface PulledFolder {
  root: string;
  io: FolderIO;
  manifest: Manifest;
  /** The manifest with its entries' problems, so a plan need not read it again. */
  loaded: LoadedManifest;
}

/** A folder a tenant was pulled into; anything else is a usage error. */
export async function pulledFolder(root: string): Promise<PulledFolder> {
  const kind = await stat(root).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => 'missing',
  );
  if (kind !== 'folder')
    throw new UsageError(
      `${root} ${kind === 'missing' ? 'does not exist' : 'is not a folder'}: give the folder a tenant was pulled into (${PROGRAM} pull --url <base URL> --tenant <id> <folder>).`,
    );
  // A command's process does nothing else while it reads the folder: its file calls may block.
  const io = new DiskFolder(root, { blocking: true });
  const loaded = await loadManifest(io);
  if (!loaded)
    throw new UsageError(
      `${root} is not a pulled tenant folder (no ${MANIFEST_FILE}): pull a tenant into it first (${PROGRAM} pull --url <base URL> --tenant <id> <folder>).`,
    );
  baseUrlFrom(loaded.manifest.baseUrl, MANIFEST_URL);
  return { root, io, manifest: loaded.manifest, loaded };
}

/**
 * Where plan and push send the token: the base URL of the folder's manifest. A pull request can change the manifest,
 * so when CONVAI_URL is set (as CI should set it) both must name one service, or nothing is sent anywhere.
 */
export function manifestTarget(folder: Pick<PulledFolder, 'root' | 'manifest'>, env: NodeJS.ProcessEnv): ServiceTarget {
  const token = tokenFrom(env);
  const { baseUrl } = folder.manifest;
  const expected = env[URL_VARIABLE]?.trim();
  if (expected && !sameBaseUrl(baseUrlFrom(expected, URL_VARIABLE), baseUrl)) {
    throw new UsageError(
      `${MANIFEST_FILE} names the service ${baseUrl}, but ${URL_VARIABLE} is ${expected}: nothing was sent, so that a changed manifest cannot send the token to another host; check baseUrl in ${path.join(folder.root, MANIFEST_FILE)}, or set ${URL_VARIABLE} to that service.`,
    );
  }
  return { baseUrl: baseUrlFrom(baseUrl, MANIFEST_URL), urlSource: MANIFEST_URL, token };
}

/** A tenant id given on the command line, checked before any request. */
export function tenantIdFrom(text: string, flag: string): number {
  const id = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(id))
    throw new UsageError(
      `${flag} "${text}" is not a tenant id: a tenant id is a whole number, 0 or more; give the tenant's, e.g. ${flag} 1.`,
    );
  return id;
}
