/**
 * One change of a plan as Markdown, a collapsible section: its title, the request a push sends (in VS Code's
 * preview), why a conflict is one, and its fields, texts as unified diffs and other values `old → new`. Everything
 * the folder or the service wrote is code: a code span, `<code>` or a fence that it cannot close.
 */
import { canonical, type Json } from '../json';
import { unifiedDiff } from '../line-diff';
import { codeSpan, fencedBlock, htmlText } from '../markdown-code';
import { isPromptTextField } from '../prompt-text';
import { kindOfSegment } from '../resources';
import { CREDENTIAL_MASK } from '../credentials';
import { hideUrlPasswords } from '../url-credentials';
import type { PlannedChange, ChangeAction } from './plan';
import { requestOf } from './plan-text';
import type { FieldChange } from './plan-values';
import { textFile } from './resource-files';

/** A structured value longer than this on one line is shown as a diff of its indented JSON instead. */
const ONE_LINE = 100;

/**
 * A password inside a URL masked in a text that is not one of the plan's values (a name, a problem, a note), which the
 * plan masked already (keeping its own marker for a kept password, which says more than the mask).
 */
export function withoutPasswords(text: string): string {
  return String(hideUrlPasswords(text, CREDENTIAL_MASK));
}

/** A value the plan may show as text lines: a string, or nothing (a create's old value, a null text). */
function asText(value: Json | undefined): string | undefined {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : undefined;
}

/** The two sides as texts to diff, when the field is one: a prompt's text, any multi-line string, a long structured value. */
function textSides(value: FieldChange): [string, string] | undefined {
  const [old, next] = [asText(value.old), asText(value.new)];
  if (
    old !== undefined &&
    next !== undefined &&
    (isPromptTextField(value.field) || old.includes('\n') || next.includes('\n'))
  )
    return [old, next];
  const structured = (v: Json | undefined): boolean => v === undefined || v === null || typeof v === 'object';
  if (
    structured(value.old) &&
    structured(value.new) &&
    canonical(value.old ?? null).length + canonical(value.new ?? null).length > 2 * ONE_LINE
  ) {
    const indented = (v: Json | undefined): string => (v === undefined ? '' : JSON.stringify(v, null, 2));
    return [indented(value.old), indented(value.new)];
  }
  return undefined;
}

function compact(value: Json | undefined): string {
  return value === undefined ? 'nothing' : codeSpan(JSON.stringify(value));
}

/** A field as a diff names it: a prompt's text with the Markdown file the folder holds it in, where it changed. */
function diffLabel(change: PlannedChange, value: FieldChange): string {
  const inFile =
    change.segment === 'ai_prompts' && isPromptTextField(value.field) && typeof (value.new ?? value.old) === 'string';
  const base = change.file.replace(/\.json$/, '');
  return inFile ? `${codeSpan(value.field)} in ${codeSpan(textFile(base, value.field))}:` : `${codeSpan(value.field)}:`;
}

function fieldLines(change: PlannedChange): string[] {
  const listed: string[] = [];
  const diffs: string[] = [];
  for (const value of change.values) {
    const sides = textSides(value);
    const diff = sides ? unifiedDiff(...sides) : [];
    if (diff.length > 0) {
      diffs.push(diffLabel(change, value), '', ...fencedBlock('diff', diff), '');
      continue;
    }
    const values = value.old === undefined ? compact(value.new) : `${compact(value.old)} → ${compact(value.new)}`;
    listed.push(`- ${codeSpan(value.field)}: ${values}`);
  }
  return [...(listed.length > 0 ? [...listed, ''] : []), ...diffs];
}

const WHAT: Readonly<Record<ChangeAction, string>> = {
  create: 'A push creates it with these fields',
  update: 'A push sends these fields (service → folder)',
  delete: 'Its file was removed from the folder: a push deletes it on the service',
  conflict: "A push sends nothing while a conflict is in the plan; the folder's fields (service → folder)",
};

function title(change: PlannedChange): string {
  const id = change.id === undefined ? '' : ` (id ${change.id})`;
  const code = (text: string): string => `<code>${htmlText(withoutPasswords(text))}</code>`;
  return `${change.action} ${kindOfSegment(change.segment).label} ${code(change.name)}${id} in ${code(change.file)}`;
}

/**
 * The change's section; `tenantId` given, for the preview: open, with the request a push sends it as (a pull request's
 * comment has no room for either, and shows each change closed).
 */
export function changeSection(change: PlannedChange, tenantId?: number): string[] {
  const request = tenantId === undefined ? undefined : requestOf(change, tenantId);
  const sent = request ? [codeSpan(`${request.method} ${request.path}`), ''] : [];
  const reason = change.reason === undefined ? [] : [`**Conflict:** ${codeSpan(withoutPasswords(change.reason))}`, ''];
  return [
    `<details${tenantId === undefined ? '' : ' open'}><summary>${title(change)}</summary>`,
    '',
    ...sent,
    ...reason,
    `${WHAT[change.action]}.`,
    '',
    ...fieldLines(change),
    '</details>',
    '',
  ];
}
