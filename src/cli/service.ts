/**
 * What the commands share: the token from the environment, the folder from
 * the one positional argument, a client for a base URL, and the manifest of a
 * pulled folder.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseBaseUrl, ServiceClient } from '../core/client';
import { diskFolder, type FolderIO } from '../core/tenant/folder-io';
import { MANIFEST_FILE, readManifest, type Manifest } from '../core/tenant/manifest';
import { PROGRAM, UsageError, type CliContext, type ParsedArgs } from './command';

export const TOKEN_VARIABLE = 'CONVAI_TOKEN';

/** The token, only ever from the environment: an argument would land in shell history and CI logs. */
export function tokenFrom(env: NodeJS.ProcessEnv): string {
  const token = env[TOKEN_VARIABLE]?.trim();
  if (!token) throw new UsageError(`${TOKEN_VARIABLE} is not set: put the service's token in the environment variable ${TOKEN_VARIABLE} (a secret in CI).`);
  return token;
}

/** The single folder argument, resolved against the working directory. */
export function folderArgument(args: ParsedArgs, context: CliContext, command: string): string {
  const [folder, ...extra] = args.positionals;
  if (folder === undefined || folder === '') throw new UsageError(`${command} needs a folder: ${PROGRAM} ${command} … <folder>.`);
  if (extra.length > 0) throw new UsageError(`${command} takes one folder, but got also ${extra.map((e) => `"${e}"`).join(', ')}; quote a path that holds spaces.`);
  return path.resolve(context.cwd, folder);
}

/** The base URL, checked before any request, so a typo is a usage error and not a failed request. */
export function baseUrlFrom(value: string, source: string): string {
  try {
    parseBaseUrl(value);
  } catch (error) {
    throw new UsageError(`${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return value;
}

export function clientFor(baseUrl: string, token: string): ServiceClient {
  return new ServiceClient({ baseUrl, token: () => token });
}

/** Runs `work` with a client whose connection pool is closed afterwards, so the process can exit. */
export async function withClient<T>(baseUrl: string, token: string, work: (client: ServiceClient) => Promise<T>): Promise<T> {
  const client = clientFor(baseUrl, token);
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
}

/** A folder a tenant was pulled into; anything else is a usage error. */
export async function pulledFolder(root: string): Promise<PulledFolder> {
  const kind = await stat(root).then((s) => (s.isDirectory() ? 'folder' : 'file'), () => 'missing');
  if (kind !== 'folder') throw new UsageError(`${root} ${kind === 'missing' ? 'does not exist' : 'is not a folder'}: give the folder a tenant was pulled into (${PROGRAM} pull --url <base URL> --tenant <id> <folder>).`);
  const io = diskFolder(root);
  const manifest = await readManifest(io);
  if (!manifest) throw new UsageError(`${root} is not a pulled tenant folder (no ${MANIFEST_FILE}): pull a tenant into it first (${PROGRAM} pull --url <base URL> --tenant <id> <folder>).`);
  baseUrlFrom(manifest.baseUrl, `${MANIFEST_FILE} baseUrl`);
  return { root, io, manifest };
}

/** A tenant id given on the command line, checked before any request. */
export function tenantIdFrom(text: string, flag: string): number {
  const id = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(id)) throw new UsageError(`${flag} "${text}" is not a tenant id: give the tenant's whole number id, e.g. ${flag} 1.`);
  return id;
}
