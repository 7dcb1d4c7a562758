/**
 * The Behaviour section of a plan's Markdown (contract: "Trials", `plan --format markdown --tests <report>`): what a
 * trial of the folder did to each case against live, read from `test --json --trial --compare` reports, regressed
 * cases first, then improved, then the rest, so a reviewer reads the change's effect beside its diff.
 */
import { isJsonObject, type Json } from '../json';
import { codeSpan } from '../markdown-code';

export type Change = 'regressed' | 'improved' | 'same';

export interface BehaviourRow {
  suite: string;
  case: string;
  live: { passes: number; runs: number };
  trial: { passes: number; runs: number };
  change: Change;
}

/** A report that is not a trial compared with live, or cases two reports both hold. */
export class BehaviourError extends Error {}

function tally(value: Json | undefined): { passes: number; runs: number } | undefined {
  if (!isJsonObject(value) || typeof value.passes !== 'number' || typeof value.runs !== 'number') return undefined;
  return { passes: value.passes, runs: value.runs };
}

/** The rows of one report; `name` says which report in an error. */
export function behaviourRows(text: string, name: string): BehaviourRow[] {
  let report: Json;
  try {
    report = JSON.parse(text) as Json;
  } catch {
    throw new BehaviourError(`${name} is not JSON: give a report that test --json --trial <folder> --compare wrote`);
  }
  if (!isJsonObject(report) || !isJsonObject(report.trial) || !Array.isArray(report.suites))
    throw new BehaviourError(
      `${name} is no trial's report (it has no "trial"): give one that test --json --trial <folder> --compare wrote`,
    );
  const rows: BehaviourRow[] = [];
  for (const suite of report.suites) {
    // A judge file's entry has no cases of a suite: it has nothing to compare.
    if (!isJsonObject(suite) || typeof suite.file !== 'string' || !Array.isArray(suite.cases) || 'judge' in suite)
      continue;
    for (const item of suite.cases) {
      if (!isJsonObject(item) || typeof item.name !== 'string') continue;
      const trial = tally(item);
      // A case that names a prompt only the trial creates has no live run.
      const live = tally(item.live);
      if (!trial || !live) continue;
      const change: Change = item.regressed === true ? 'regressed' : item.improved === true ? 'improved' : 'same';
      rows.push({ suite: suite.file, case: item.name, live, trial, change });
    }
  }
  const cases = report.suites.some((s) => isJsonObject(s) && Array.isArray(s.cases) && s.cases.length > 0);
  if (rows.length === 0 && cases)
    throw new BehaviourError(`${name} compares no case with live: run test --json --trial <folder> with --compare`);
  return rows;
}

/** The reports' rows together (a CI matrix's shards), a case in two of them being an error. */
export function mergedRows(reports: ReadonlyArray<{ name: string; rows: readonly BehaviourRow[] }>): BehaviourRow[] {
  const seen = new Map<string, string>();
  const rows: BehaviourRow[] = [];
  for (const { name, rows: own } of reports) {
    for (const row of own) {
      const key = JSON.stringify([row.suite, row.case]);
      const other = seen.get(key);
      if (other !== undefined)
        throw new BehaviourError(
          `case "${row.case}" of ${row.suite} is in both ${other} and ${name}: give each shard's report once`,
        );
      seen.set(key, name);
      rows.push(row);
    }
  }
  return rows;
}

const ORDER: Record<Change, number> = { regressed: 0, improved: 1, same: 2 };

/** A table cell: a code span, with the pipes a table would split on escaped. */
function cell(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}

/** The share of a plan's comment (core/tenant/plan-markdown.ts) the section's rows may take. */
export const BEHAVIOUR_SHARE = 15_000;

/** The section's lines, at most `share` characters of rows, then how many more there are. */
export function behaviourSection(rows: readonly BehaviourRow[], share = BEHAVIOUR_SHARE): string[] {
  const sorted = [...rows].sort((a, b) => ORDER[a.change] - ORDER[b.change]);
  const counts = (['regressed', 'improved', 'same'] as const).map(
    (c) => `${sorted.filter((r) => r.change === c).length} ${c}`,
  );
  const lines = [
    '#### Behaviour',
    '',
    `The suites this change affects, run as a trial of it and on the live prompts: ${counts.join(', ')}.`,
    '',
    '| suite | case | live | trial | change |',
    '|---|---|--:|--:|---|',
  ];
  let size = lines.reduce((sum, line) => sum + line.length + 1, 0);
  for (const [index, row] of sorted.entries()) {
    const line = `| ${cell(row.suite)} | ${cell(row.case)} | ${row.live.passes}/${row.live.runs} | ${row.trial.passes}/${row.trial.runs} | ${row.change === 'same' ? row.change : `**${row.change}**`} |`;
    if (size + line.length + 1 > share) {
      lines.push('', `… and ${sorted.length - index} more cases (the reports hold them all).`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return [...lines, ''];
}
