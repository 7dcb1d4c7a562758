/**
 * The rows of a change list: one per file, not per resource, so that a
 * prompt's edited system text is diffed as Markdown beside the service's,
 * apart from its JSON fields. No vscode here: the rows are plain data.
 */
import type { JsonObject } from '../../core/json';
import { PROMPT_TEXT_FIELDS } from '../../core/prompt-text';
import { plain } from '../../core/plain-text';
import { kindOfSegment } from '../../core/resources';
import type { Segment } from '../../core/resource-kind';
import type { Manifest, PulledResource } from '../../core/tenant/manifest';
import type { LocalChange } from '../../core/tenant/local-changes';
import { textFile } from '../../core/tenant/resource-files';

export type ChangeAction = 'create' | 'update' | 'delete' | 'conflict';

/** A resource's change, as a local plan, a checked plan or a promotion tells it. */
export interface ResourceChange {
  action: ChangeAction;
  segment: Segment;
  name: string;
  /** The resource's JSON file, relative to the folder. */
  file: string;
  fields: string[];
  /** The resource's values in the folder; none when the folder no longer holds it. */
  values?: JsonObject;
  /** Why a conflict is one. */
  reason?: string;
  /** What stops sending it (a promotion's unresolved reference, say). */
  problems?: string[];
}

/** One file of a change: a row of its own, with a diff of its own. */
export interface ChangedFile {
  change: ResourceChange;
  /** Relative to the folder. */
  file: string;
  /** The changed fields this file holds. */
  fields: string[];
  /** Whether the folder no longer has the file. */
  removed: boolean;
}

const base = (jsonFile: string): string => jsonFile.replace(/\.json$/, '');

/** The file of a resource that holds a field: a prompt's text sits in its Markdown sibling, the rest in the JSON. */
function fileOf(change: ResourceChange, values: JsonObject, field: string): string {
  const isText = (PROMPT_TEXT_FIELDS as readonly string[]).includes(field) && typeof values[field] === 'string';
  return change.segment === 'ai_prompts' && isText ? textFile(base(change.file), field) : change.file;
}

/** A change's rows: the JSON file first, then each Markdown text it changes. */
export function changedFiles(change: ResourceChange): ChangedFile[] {
  const { values } = change;
  if (!values) return [{ change, file: change.file, fields: change.fields, removed: true }];
  const byFile = new Map<string, string[]>([[change.file, []]]);
  for (const field of change.fields) {
    const file = fileOf(change, values, field);
    byFile.set(file, [...(byFile.get(file) ?? []), field]);
  }
  // The JSON file stays a row of an update only when it holds a changed field; a create or a conflict always shows it.
  if (change.action === 'update' && byFile.get(change.file)?.length === 0) byFile.delete(change.file);
  return [...byFile].map(([file, fields]) => ({ change, file, fields, removed: false }));
}

/** The pulled resource a file belongs to: its JSON file or one of its text siblings. */
export function pulledResourceOf(manifest: Manifest, file: string): PulledResource | undefined {
  return manifest.resources.find(
    (entry) =>
      entry.file === file ||
      (entry.segment === 'ai_prompts' &&
        PROMPT_TEXT_FIELDS.some((field) => textFile(base(entry.file), field) === file)),
  );
}

/** How a change names its resource: the name in its file, else the name it was pulled with, else the file. */
export function changeName(change: LocalChange): string {
  const name = change.resource?.values.name;
  return typeof name === 'string' && name !== '' ? name : (change.entry?.name ?? change.file);
}

const VERBS: Record<ChangeAction, string> = {
  create: 'New',
  update: 'Changed',
  delete: 'Removed',
  conflict: 'Conflict',
};

/** What a row's tooltip says: the action, the resource and the fields. */
export function describe(row: ChangedFile): string {
  const { change } = row;
  const what = plain`${kindOfSegment(change.segment).label} "${change.name}"`;
  const fields = row.fields.length > 0 ? plain`: ${row.fields.join(', ')}` : '';
  const reason = change.reason ? plain` (${change.reason})` : '';
  const problems = change.problems?.length ? plain` — cannot be sent: ${change.problems.join(' ')}` : '';
  return `${VERBS[change.action]}${reason} · ${what}${fields}${problems}`;
}
