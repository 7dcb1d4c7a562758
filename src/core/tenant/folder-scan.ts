/**
 * A tenant folder read whole: every entry is a resource file, a text part of
 * one, the manifest or an allowed extra, or it is a problem (nothing is
 * silently ignored); every resource file is read back into its values.
 */
import type { JsonObject } from '../client';
import { mapWithLimit } from '../concurrency';
import type { Segment } from '../resources';
import type { FolderIO } from './folder-io';
import { folderLayout } from './folder-layout';
import type { FolderProblem } from './folder-problems';
import { kindOfSegment, readResource } from './representation';

export interface LocalResource {
  segment: Segment;
  file: string;
  id?: number;
  values: JsonObject;
  /** The JSON file's text, for pointing problems at their place. */
  text?: string;
  /** The prompt texts that came from Markdown files. */
  parts: string[];
}

export interface FolderScan {
  local: LocalResource[];
  problems: FolderProblem[];
  /** Resource files that are there but cannot be read: their resources are neither updated nor deleted. */
  unreadable: Set<string>;
  /** Every file below the folder, dot-folders' contents aside. */
  files: Set<string>;
}

/** Reads at once: enough to keep the disk busy, few enough not to exhaust file handles. */
const READS_AT_ONCE = 16;

export async function scanFolder(io: FolderIO): Promise<FolderScan> {
  const entries = await io.walk();
  const layout = folderLayout(entries);
  // The layout's messages lead with the entry's path, which a folder problem keeps apart.
  const problems: FolderProblem[] = layout.problems.map((p) => ({ file: p.path, message: p.message.startsWith(`${p.path}: `) ? p.message.slice(p.path.length + 2) : p.message }));
  const unreadable = new Set<string>();
  const read = await mapWithLimit(layout.resources, READS_AT_ONCE, async ({ segment, base, parts }): Promise<LocalResource | undefined> => {
    const file = `${base}.json`;
    const result = await readResource(kindOfSegment(segment), io, base, parts).catch((error: unknown) => ({
      ok: false as const,
      problem: { file, message: `cannot be read (${error instanceof Error ? error.message : String(error)}); check the file and its permissions` },
    }));
    if (result.ok) return { segment, file, ...(result.id === undefined ? {} : { id: result.id }), values: result.values, text: result.text, parts: result.parts };
    problems.push(result.problem);
    unreadable.add(file);
    return undefined;
  });
  return {
    local: read.filter((r): r is LocalResource => r !== undefined),
    problems,
    unreadable,
    files: new Set(entries.filter((e) => e.type === 'file').map((e) => e.path)),
  };
}
