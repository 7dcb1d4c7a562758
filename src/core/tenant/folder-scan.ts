/**
 * A tenant folder read whole: every entry is a resource file, a text part of
 * one, the manifest or an allowed extra, or it is a problem (nothing is
 * silently ignored); every resource file is read back into its values.
 */
import type { JsonObject } from '../json';
import { kindOfSegment, type Segment } from '../resources';
import type { FolderIO } from './folder-io';
import { folderLayout } from './folder-layout';
import type { FolderProblem } from './folder-problems';
import type { PromptTextField } from '../prompt-text';
import { resourceFromTexts, textFile } from './representation';

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

/**
 * `texts: false` leaves prompts' Markdown parts unread, and their fields out
 * of the values: for readers of references alone (the flow map), which then
 * read half the files of a folder of prompts.
 */
export async function scanFolder(io: FolderIO, { texts = true }: { texts?: boolean } = {}): Promise<FolderScan> {
  const entries = await io.walk();
  const layout = folderLayout(entries);
  // The layout's messages lead with the entry's path, which a folder problem keeps apart.
  const problems: FolderProblem[] = layout.problems.map((p) => ({ file: p.path, message: p.message.startsWith(`${p.path}: `) ? p.message.slice(p.path.length + 2) : p.message }));
  const unreadable = new Set<string>();
  // Every file in one run, then each resource from its texts: a large folder's scan is its reads.
  const partsOf = (base: string, parts: readonly PromptTextField[]): string[] => (texts ? parts.map((field) => textFile(base, field)) : []);
  const files = layout.resources.flatMap(({ base, parts }) => [`${base}.json`, ...partsOf(base, parts)]);
  const read = await io.readMany(files);
  const outcomes = new Map(files.map((file, index) => [file, read[index]] as const));
  const anyFailed = read.some((outcome) => outcome instanceof Error);
  const local: LocalResource[] = [];
  for (const { segment, base, parts } of layout.resources) {
    const file = `${base}.json`;
    const failed = anyFailed ? [file, ...partsOf(base, parts)].map((f) => outcomes.get(f)).find((o): o is Error => o instanceof Error) : undefined;
    const result = failed
      ? { ok: false as const, problem: { file, message: `cannot be read (${failed.message}); check the file and its permissions` } }
      : resourceFromTexts(kindOfSegment(segment), base, outcomes.get(file) as string | undefined, (field) => outcomes.get(textFile(base, field)) as string | undefined);
    if (result.ok) {
      local.push({ segment, file, ...(result.id === undefined ? {} : { id: result.id }), values: result.values, text: result.text, parts: result.parts });
    } else {
      problems.push(result.problem);
      unreadable.add(file);
    }
  }
  return { local, problems, unreadable, files: new Set(entries.filter((e) => e.type === 'file').map((e) => e.path)) };
}
