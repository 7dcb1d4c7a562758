/**
 * What a saved plan records of what it was planned against, as hashes: each file of the folder a push reads, and
 * the service's state of each resource a change touches. No value of any field, so no credential.
 */
import { hash } from 'node:crypto';
import { CREDENTIAL_MASK } from '../credentials';
import { canonical, type JsonObject } from '../json';
import { hideUrlPasswords } from '../url-credentials';
import { readAll, type FolderIO } from './folder-io';
import { isFolderExtra, type PulledFiles } from './folder-layout';
import type { Manifest } from './manifest';

export const sha256 = (text: string): string => hash('sha256', text, 'hex');

/** A resource's state as a plan compared it; undefined for none (a create). */
export function stateHash(values: JsonObject | undefined): string | undefined {
  return values === undefined ? undefined : sha256(canonical(values));
}

/** The files of the manifest's entries: never extras, whatever their names. */
export function pulledFiles(manifest: Manifest): Set<string> {
  return new Set(manifest.resources.map((entry) => entry.file));
}

/** A hash of each file below the folder a push reads or a plan reports, by path in code-unit order. */
export async function folderFileHashes(io: FolderIO, pulled: PulledFiles): Promise<Record<string, string>> {
  const entries = (await io.walk()).filter((entry) => entry.type !== 'folder' && !isFolderExtra(entry.path, pulled));
  const files = entries.filter((entry) => entry.type === 'file').map((entry) => entry.path);
  const texts = new Map(files.map((file, index) => [file, index]));
  const read = await readAll(io, files);
  const hashes: Record<string, string> = {};
  for (const entry of entries) {
    const index = texts.get(entry.path);
    const text = index === undefined ? undefined : read[index];
    // A link or a file that cannot be read is a problem of the plan; here it only needs to be told apart.
    hashes[entry.path] =
      typeof text === 'string' ? sha256(text) : `${entry.type}${text instanceof Error ? ':unreadable' : ''}`;
  }
  return hashes;
}

/** The base URL as a saved plan holds it: a password in it masked, as everywhere it is shown. */
export function hiddenUrl(baseUrl: string): string {
  return hideUrlPasswords(baseUrl, CREDENTIAL_MASK) as string;
}
