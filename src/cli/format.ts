/**
 * Plans and pushes as a terminal shows them: a table in the order a push
 * sends the changes, and the contract's JSON shapes for scripts.
 */
import type { Json } from '../core/json';
import { inertLine } from '../core/plain-text';
import type { PlannedChange, Plan } from '../core/tenant/plan';
import { publicChange } from '../core/tenant/plan-text';
import { planVerdict, PROBLEMS_HEADING } from '../core/tenant/plan-verdict';
import type { NotTaken, PushResult } from '../core/tenant/push';

const MAX_CELL = 40;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Columns padded to their widest cell; the last one is left ragged. A cell is shown inert before it is measured, so
 * a name's line break or control character, written as its escape, keeps its row one line and the columns aligned.
 */
export function table(cells: string[][]): string[] {
  const rows = cells.map((row) => row.map(inertLine));
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function planLines(plan: Plan, folder: string): string[] {
  const { manifest, changes, problems } = plan;
  const lines = [`Tenant ${manifest.tenantId} of ${manifest.baseUrl}, folder ${folder}: ${planVerdict(plan).summary}`];
  if (changes.length > 0) {
    const rows = [['#', 'action', 'kind', 'id', 'name', 'fields']];
    const reasons = new Map<number, string>();
    changes.forEach((change, index) => {
      rows.push([
        String(index + 1),
        change.action,
        change.segment,
        change.id === undefined ? '-' : String(change.id),
        clip(change.name, MAX_CELL),
        change.fields.join(', ') || '-',
      ]);
      if (change.reason) reasons.set(index + 1, `${change.file}: ${change.reason}`);
    });
    const [header, ...body] = table(rows);
    lines.push('', header ?? '');
    // A conflict's reason goes right under its row, where the reader is looking.
    body.forEach((row, index) => {
      lines.push(row);
      const reason = reasons.get(index + 1);
      if (reason) lines.push(`   conflict: ${reason}`);
    });
  }
  if (problems.length > 0) lines.push('', `${PROBLEMS_HEADING}:`, ...problems.map((p) => `- ${p}`));
  return lines;
}

/** `extra`: what an option adds beside the contract's two fields (`plan --drift`'s drift). */
export function planJson(plan: Plan, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ changes: plan.changes.map(publicChange), problems: plan.problems, ...extra }, null, 2);
}

const PAST: Readonly<Record<PlannedChange['action'], string>> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  conflict: 'skipped',
};

export function appliedLine(change: PlannedChange, id = change.id): string {
  const shownId = id === undefined ? '' : ` (id ${id})`;
  const fields = change.fields.length > 0 ? `: ${change.fields.join(', ')}` : '';
  return `${PAST[change.action]} ${change.segment} "${change.name}"${shownId}${fields}`;
}

/** A field's value in one short line: its JSON, clipped. */
function clippedJson(value: Json | undefined): string {
  return value === undefined ? 'nothing' : clip(JSON.stringify(value), 80);
}

export function notTakenLine(missed: NotTaken): string {
  return `${missed.file}: the service did not take "${missed.field}" as sent (sent ${clippedJson(missed.sent)}, it holds ${clippedJson(missed.holds)}); the folder keeps your value, so the next plan shows it again: check it against the service's rules.`;
}

export function pushJson(result: PushResult): string {
  return JSON.stringify({ applied: result.applied.map(publicChange), notTaken: result.notTaken }, null, 2);
}
