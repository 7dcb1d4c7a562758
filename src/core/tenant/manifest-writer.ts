/**
 * Writing `convai-tenant.json`: JSON.stringify one entry per line, in file
 * order, so that a pull's diff in a versioned folder shows one line per
 * resource that changed, and whole (a reader finds the old file or the new).
 */
import { LIMITS } from '../limits';
import type { FolderIO } from './folder-io';
import { entryRecord, JOURNAL_FILE, MANIFEST_FILE, type Manifest } from './manifest';

/**
 * A list with an element per line, so that a pull's diff shows a line per resource that changed; in parts of a
 * thousand lines, as a large tenant's manifest is tens of megabytes, and each part is all the writer holds of its lines.
 */
function linePerElement(elements: readonly object[]): string[] {
  if (elements.length === 0) return ['[]'];
  const parts: string[] = [];
  for (let start = 0; start < elements.length; start += LIMITS.manifestPart.value) {
    const lines = elements.slice(start, start + LIMITS.manifestPart.value).map((e) => JSON.stringify(e));
    parts.push(`${start === 0 ? '[\n    ' : ',\n    '}${lines.join(',\n    ')}`);
  }
  parts.push('\n  ]');
  return parts;
}

/** Writes the whole manifest, then drops the journal it folds in (read before, its steps are in `manifest`). */
export async function writeManifest(io: FolderIO, manifest: Manifest): Promise<void> {
  const { connection, baseUrl, tenantId, pending = [] } = manifest;
  // In code-unit order: the same on every machine, whatever its locale.
  const resources = manifest.resources
    .map(entryRecord)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const pendingParts =
    pending.length > 0
      ? [',\n  "pending": ', ...linePerElement(pending.map(({ segment, file, name }) => ({ segment, file, name })))]
      : [];
  const parts = [
    `{\n  "connection": ${JSON.stringify(connection)},\n  "baseUrl": ${JSON.stringify(baseUrl)},\n  "tenantId": ${JSON.stringify(tenantId)},\n  "resources": `,
    ...linePerElement(resources),
    ...pendingParts,
    '\n}\n',
  ];
  // Whole or not at all: the Source Control view reads it the moment it appears, and a stop mid-write loses nothing.
  await io.replace(MANIFEST_FILE, parts);
  // Stopped before this, the journal is replayed over a manifest that holds it already, which changes nothing.
  await io.remove(JOURNAL_FILE);
}
