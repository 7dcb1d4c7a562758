/**
 * A plan as a pull request's comment: a summary line, problems first, then
 * notes, then one collapsible section per change with its fields (texts as
 * unified diffs, other values `old → new`). Everything the folder or the
 * service wrote is shown as text, in code spans, `<code>` or fences that it
 * cannot close, so a name or a value can neither break the comment nor add
 * HTML, links or mentions to it. The comment stays within what a comment may
 * hold, and the same plan gives the same bytes, so CI can update it in place.
 */
import { canonical, type Json } from '../json';
import { unifiedDiff } from '../line-diff';
import { isPromptTextField } from '../prompt-text';
import { kindOfSegment } from '../resources';
import { CREDENTIAL_MASK } from '../credentials';
import { cut, plural } from '../text';
import { LIMITS } from '../limits';
import { inertLine, inertLines } from '../plain-text';
import { codeSpan, longestRun } from '../markdown-code';
import { hideUrlPasswords } from '../url-credentials';
import type { Change, ChangeAction, FieldChange, Plan } from './plan';

/** The comment's first line: CI finds its earlier comment by it, to update that one instead of adding another. */
export const PLAN_MARKER = '<!-- convai-plan -->';
/** The longest comment (core/limits.ts planComment: GitHub's own limit, less room for what CI adds). */
export const MARKDOWN_LIMIT = LIMITS.planComment.value;

/** Shares of the limit that the lists before the changes may take, so the changes always keep most of it. */
const PROBLEMS_SHARE = 20_000;
const NOTES_SHARE = 10_000;
const LEFT_OUT_SHARE = 8_000;
/** A structured value longer than this on one line is shown as a diff of its indented JSON instead. */
const ONE_LINE = 100;

export interface MarkdownOptions {
  /** More notes to show after the problems (`plan --drift`'s drift), after the plan's own. */
  notes?: readonly string[];
}

/**
 * A password inside a URL masked in a text that is not one of the plan's values (a name, a problem, a note), which the
 * plan masked already (keeping its own marker for a kept password, which says more than the mask).
 */
function shown(text: string): string {
  return String(hideUrlPasswords(text, CREDENTIAL_MASK));
}

function htmlText(text: string): string {
  return inertLine(shown(text)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A fenced block its lines cannot close (a longer fence than any backtick run in them); a carriage return, a line end
 * there, shown as ␍, and any other control or bidi character as its escape (a tab stays).
 */
function fenced(info: string, lines: readonly string[]): string[] {
  const body = lines.map((line) => inertLines(line.replace(/\r/g, '␍')));
  const fence = '`'.repeat(Math.max(3, ...body.map((line) => longestRun(line, '`') + 1)));
  return [`${fence}${info}`, ...body, fence];
}

/** A value the plan may show as text lines: a string, or nothing (a create's old value, a null text). */
function asText(value: Json | undefined): string | undefined {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : undefined;
}

/** The two sides as texts to diff, when the field is one: a prompt's text, any multi-line string, a long structured value. */
function textSides(value: FieldChange): [string, string] | undefined {
  const [old, next] = [asText(value.old), asText(value.new)];
  if (old !== undefined && next !== undefined && (isPromptTextField(value.field) || old.includes('\n') || next.includes('\n'))) return [old, next];
  const structured = (v: Json | undefined): boolean => v === undefined || v === null || typeof v === 'object';
  if (structured(value.old) && structured(value.new) && canonical(value.old ?? null).length + canonical(value.new ?? null).length > 2 * ONE_LINE) {
    const indented = (v: Json | undefined): string => (v === undefined ? '' : JSON.stringify(v, null, 2));
    return [indented(value.old), indented(value.new)];
  }
  return undefined;
}

function compact(value: Json | undefined): string {
  return value === undefined ? 'nothing' : codeSpan(JSON.stringify(value));
}

function fieldLines(change: Change): string[] {
  const listed: string[] = [];
  const diffs: string[] = [];
  for (const value of change.values) {
    const sides = textSides(value);
    const diff = sides ? unifiedDiff(...sides) : [];
    if (diff.length > 0) {
      diffs.push(`${codeSpan(value.field)}:`, '', ...fenced('diff', diff), '');
      continue;
    }
    const shown = value.old === undefined ? compact(value.new) : `${compact(value.old)} → ${compact(value.new)}`;
    listed.push(`- ${codeSpan(value.field)}: ${shown}`);
  }
  return [...(listed.length > 0 ? [...listed, ''] : []), ...diffs];
}

const WHAT: Readonly<Record<ChangeAction, string>> = {
  create: 'A push creates it with these fields',
  update: 'A push sends these fields (service → folder)',
  delete: 'Its file was removed from the folder: a push deletes it on the service',
  conflict: 'A push sends nothing while a conflict is in the plan; the folder\'s fields (service → folder)',
};

function title(change: Change): string {
  const id = change.id === undefined ? '' : ` (id ${change.id})`;
  return `${change.action} ${kindOfSegment(change.segment).label} <code>${htmlText(change.name)}</code>${id} in <code>${htmlText(change.file)}</code>`;
}

function section(change: Change): string[] {
  const reason = change.reason === undefined ? [] : [`**Conflict:** ${codeSpan(shown(change.reason))}`, ''];
  return [`<details><summary>${title(change)}</summary>`, '', ...reason, `${WHAT[change.action]}.`, '', ...fieldLines(change), '</details>', ''];
}

/** A list under its heading, as many items as fit in `share` characters, then how many more there are. */
function boundedList(heading: string, items: readonly string[], share: number): string[] {
  if (items.length === 0) return [];
  const lines = [heading, ''];
  let size = heading.length + 1;
  for (const [index, item] of items.entries()) {
    const line = `- ${codeSpan(shown(item))}`;
    if (size + line.length + 1 > share) {
      lines.push(`- … and ${items.length - index} more (run plan in a terminal to see them all)`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return [...lines, ''];
}

const size = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + line.length + 1, 0);

function leftOutNote(left: readonly Change[]): string[] {
  if (left.length === 0) return [];
  const heading = `**Left out** to keep this comment within ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters, ${plural(left.length, 'change')} (run plan --format markdown on the folder to see them):`;
  return boundedList(heading, left.map((change) => `${change.file}: ${change.action} ${kindOfSegment(change.segment).label} ${cut(change.name, 80)}`), LEFT_OUT_SHARE);
}

function summary(changes: readonly Change[], problems: number): string {
  if (changes.length === 0 && problems === 0) return '**No change in the folder since the pull.**';
  const count = (action: ChangeAction): number => changes.filter((c) => c.action === action).length;
  const counts = [plural(count('create'), 'create'), plural(count('update'), 'update'), plural(count('delete'), 'delete'), plural(count('conflict'), 'conflict')].join(', ');
  const blocked = count('conflict') > 0 || problems > 0 ? `; ${plural(problems, 'problem')}, so a push sends nothing until they are resolved` : '';
  return `**${plural(changes.length, 'change')}:** ${counts}${blocked}.`;
}

/** The plan as a pull request's comment, at most MARKDOWN_LIMIT characters, the same bytes for the same plan. */
export function planMarkdown(plan: Pick<Plan, 'manifest' | 'changes' | 'problems' | 'notes'>, options: MarkdownOptions = {}): string {
  const { manifest, changes, problems } = plan;
  const service = cut(manifest.baseUrl, 200);
  const fixed = [
    PLAN_MARKER,
    `### ConvAI plan: tenant ${manifest.tenantId} of ${codeSpan(shown(service))}`,
    '',
    summary(changes, problems.length),
    '',
    ...boundedList('#### Problems (a push sends nothing until they are fixed)', problems, PROBLEMS_SHARE),
    ...boundedList('#### Notes', [...plan.notes, ...(options.notes ?? [])], NOTES_SHARE),
    ...(changes.length > 0 ? ['#### Changes, in the order a push sends them', ''] : []),
  ];
  const sections = changes.map(section);
  const sizes = sections.map(size);
  const room = MARKDOWN_LIMIT - size(fixed);
  const kept = new Set(changes.keys());
  let total = sizes.reduce((sum, n) => sum + n, 0);
  if (total > room) {
    // The largest sections go first (the later of two alike), so as many changes as possible stay readable in full;
    // the note naming them takes at most its share and one line more.
    const budget = room - LEFT_OUT_SHARE - 200;
    const bySize = [...changes.keys()].sort((a, b) => (sizes[b] as number) - (sizes[a] as number) || b - a);
    for (const index of bySize) {
      if (total <= budget) break;
      kept.delete(index);
      total -= sizes[index] as number;
    }
  }
  const lines = [
    ...fixed,
    ...sections.filter((_, index) => kept.has(index)).flat(),
    ...leftOutNote(changes.filter((_, index) => !kept.has(index))),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
