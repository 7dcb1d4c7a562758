/**
 * A plan as Markdown, for a pull request's comment and for VS Code's Plan Push preview alike: a summary, problems
 * first, then notes, then one collapsible section per change (change-markdown.ts). Everything the folder or the
 * service wrote is shown as text, in code spans, `<code>` or fences that it cannot close, so a name or a value can
 * neither break the document nor add HTML, links or mentions to it. The comment stays within what a comment may
 * hold, and the same plan gives the same bytes, so CI can update it in place.
 */
import { cut, plural } from '../text';
import { LIMITS } from '../limits';
import { codeSpan } from '../markdown-code';
import { kindOfSegment } from '../resources';
import { changeSection, withoutPasswords } from './change-markdown';
import type { PlannedChange, ChangeAction, Plan } from './plan';
import { planVerdict, PROBLEMS_HEADING } from './plan-verdict';

/** The comment's first line: CI finds its earlier comment by it, to update that one instead of adding another. */
export const PLAN_MARKER = '<!-- convai-plan -->';
/** The longest comment (core/limits.ts planComment: GitHub's own limit, less room for what CI adds). */
export const MARKDOWN_LIMIT = LIMITS.planComment.value;

/** Shares of the limit that the lists before the changes may take, so the changes always keep most of it. */
const PROBLEMS_SHARE = 20_000;
const NOTES_SHARE = 10_000;
const LEFT_OUT_SHARE = 8_000;

export interface MarkdownOptions {
  /** More notes to show after the problems (`plan --drift`'s drift), after the plan's own. */
  notes?: readonly string[];
  /**
   * VS Code's preview of the plan of this folder: titled for the folder and its connection, each change with the
   * request a push sends, and all of it shown, as a preview has no comment's limit.
   */
  preview?: { folder: string };
  /** The Behaviour section's lines (trials/behaviour.ts): the cases a trial of this folder ran, against live. */
  behaviour?: readonly string[];
}

/** A list under its heading, as many items as fit in `share` characters, then how many more there are. */
function boundedList(heading: string, items: readonly string[], share: number): string[] {
  if (items.length === 0) return [];
  const lines = [heading, ''];
  let size = heading.length + 1;
  for (const [index, item] of items.entries()) {
    const line = `- ${codeSpan(withoutPasswords(item))}`;
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

function leftOutNote(left: readonly PlannedChange[]): string[] {
  if (left.length === 0) return [];
  const heading = `**Left out** to keep this comment within ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters, ${plural(left.length, 'change')} (run plan --format markdown on the folder to see them):`;
  return boundedList(
    heading,
    left.map(
      (change) => `${change.file}: ${change.action} ${kindOfSegment(change.segment).label} ${cut(change.name, 80)}`,
    ),
    LEFT_OUT_SHARE,
  );
}

/** The comment's summary: counts per action, and what keeps a push from sending them. */
function summary(plan: Pick<Plan, 'changes' | 'problems'>): string {
  const { changes } = plan;
  const { blocked } = planVerdict(plan);
  if (changes.length === 0 && !blocked) return '**No change in the folder since the pull.**';
  const count = (action: ChangeAction): number => changes.filter((c) => c.action === action).length;
  const counts = [
    plural(count('create'), 'create'),
    plural(count('update'), 'update'),
    plural(count('delete'), 'delete'),
    plural(count('conflict'), 'conflict'),
  ].join(', ');
  return `**${plural(changes.length, 'change')}:** ${counts}${blocked ? `; ${blocked}` : ''}.`;
}

/** What the document starts with: the comment's marker and title, or the preview's title naming the folder. */
function heading(plan: Pick<Plan, 'manifest' | 'changes' | 'problems'>, preview: MarkdownOptions['preview']): string[] {
  const { manifest } = plan;
  const service = codeSpan(withoutPasswords(cut(manifest.baseUrl, 200)));
  if (!preview) return [PLAN_MARKER, `### ConvAI plan: tenant ${manifest.tenantId} of ${service}`, '', summary(plan)];
  const line = planVerdict(plan).summary;
  const folder = codeSpan(withoutPasswords(preview.folder));
  return [
    `# Push plan: tenant ${manifest.tenantId} on ${codeSpan(withoutPasswords(manifest.connection))}`,
    '',
    `Folder ${folder}, service ${service}. ${line.charAt(0).toUpperCase()}${line.slice(1)}`,
  ];
}

/**
 * The plan as Markdown, the same bytes for the same plan: a pull request's comment of at most MARKDOWN_LIMIT
 * characters, or with `preview`, VS Code's preview of all of it.
 */
export function planMarkdown(
  plan: Pick<Plan, 'manifest' | 'changes' | 'problems' | 'notes'>,
  options: MarkdownOptions = {},
): string {
  const { manifest, changes, problems } = plan;
  const { preview } = options;
  const limit = preview ? Number.POSITIVE_INFINITY : MARKDOWN_LIMIT;
  const fixed = [
    ...heading(plan, preview),
    '',
    ...(options.behaviour ?? []),
    ...boundedList(`#### ${PROBLEMS_HEADING}`, problems, preview ? limit : PROBLEMS_SHARE),
    ...boundedList('#### Notes', [...plan.notes, ...(options.notes ?? [])], preview ? limit : NOTES_SHARE),
    ...(changes.length > 0 ? ['#### Changes, in the order a push sends them', ''] : []),
  ];
  const sections = changes.map((change) => changeSection(change, preview ? manifest.tenantId : undefined));
  const sizes = sections.map(size);
  const room = limit - size(fixed);
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
