import type * as vscode from 'vscode';
import { isJsonObject, type Json } from '../core/json';
import type { SuiteResult } from '../core/prompt-tests/types';
import type { Tally } from '../core/prompt-tests/statistics';

const KEY = 'convai.promptTests.greenRuns';

type Stored = Record<string, Record<string, Tally>>;

function tallyOf(value: Json | undefined): Tally | undefined {
  if (!isJsonObject(value)) return undefined;
  const { passes, runs } = value;
  return typeof passes === 'number' && typeof runs === 'number' && passes >= 0 && passes <= runs
    ? { passes, runs }
    : undefined;
}

/**
 * Each suite's last green run (every case it ran passed), per workspace: the
 * baseline of "Run against Last Green Run", so a prompt whose pass rate
 * slipped but still meets minPassRate is caught in the editor as in CI.
 */
export class GreenRuns {
  constructor(private readonly state: vscode.Memento) {}

  private stored(): Stored {
    const value = this.state.get<Json>(KEY);
    const stored: Stored = {};
    // Written by an older or newer version, or by hand: keep what reads as tallies, drop the rest.
    for (const [suite, cases] of Object.entries(isJsonObject(value) ? value : {})) {
      if (!isJsonObject(cases)) continue;
      const tallies = Object.entries(cases).flatMap(([name, tally]) => {
        const read = tallyOf(tally);
        return read ? [[name, read] as const] : [];
      });
      stored[suite] = Object.fromEntries(tallies);
    }
    return stored;
  }

  /** The suite's last green tallies by case name; empty when it never ran green. */
  baseline(suite: vscode.Uri): ReadonlyMap<string, Tally> {
    return new Map(Object.entries(this.stored()[suite.toString()] ?? {}));
  }

  /** Keeps a green run's tallies, case by case: a run of some cases leaves the others' as they were. */
  async remember(suite: vscode.Uri, result: SuiteResult): Promise<void> {
    if (result.failed > 0 || result.skipped > 0 || result.cases.length === 0) return;
    const stored = this.stored();
    const key = suite.toString();
    const tallies = { ...stored[key] };
    for (const c of result.cases) tallies[c.name] = { passes: c.passes, runs: c.runs };
    await this.state.update(KEY, { ...stored, [key]: tallies });
  }
}
