import type * as vscode from 'vscode';
import { addRun, findRun, runsOf, type HistoryData, type RunRecord } from '../core/history';
import { isJsonObject } from '../core/json';
import { LIMITS } from '../core/limits';

const HISTORY_KEY = 'convai.runHistory';
const RECENT_KEY = 'convai.recentInputs';

/** Run history and recent inputs in the extension's global storage, so both survive restarts. */
export class HistoryStore {
  /**
   * The history with the runs whose update is still under way. A suite records its cases as they finish, several
   * at once, and a memento may give back the old value until an update is done: each run adds to the newest.
   */
  private pending: HistoryData | undefined;
  private updating = 0;

  constructor(private readonly state: Pick<vscode.Memento, 'get' | 'update'>) {}

  runs(resource: string): RunRecord[] {
    return runsOf(this.data(), resource);
  }

  find(resource: string, id: string): RunRecord | undefined {
    return findRun(this.data(), resource, id);
  }

  /** The run a command's `{ resource, runId }` (or the panel's reference to a run) names. */
  named(arg: unknown): RunRecord | undefined {
    const ref = arg as { resource?: unknown; runId?: unknown } | undefined;
    return typeof ref?.resource === 'string' && typeof ref.runId === 'string'
      ? this.find(ref.resource, ref.runId)
      : undefined;
  }

  /** The newest run of all, for bringing the panel back when it did not say what it showed. */
  newest(): RunRecord | undefined {
    // addRun keeps the most recently run resource first.
    return Object.values(this.data())[0]?.[0];
  }

  async add(run: RunRecord): Promise<void> {
    this.pending = addRun(this.data(), run);
    this.updating += 1;
    try {
      await this.state.update(HISTORY_KEY, this.pending);
    } finally {
      this.updating -= 1;
      if (this.updating === 0) this.pending = undefined;
    }
  }

  /** Recent values of one input (prompt texts, action names), newest first. */
  recent(input: string): string[] {
    const all = this.state.get<Record<string, string[]>>(RECENT_KEY, {});
    return Array.isArray(all[input]) ? all[input] : [];
  }

  async remember(input: string, value: string): Promise<void> {
    const all = this.state.get<Record<string, string[]>>(RECENT_KEY, {});
    const values = [value, ...(all[input] ?? []).filter((v) => v !== value)].slice(0, LIMITS.recentInputs.value);
    await this.state.update(RECENT_KEY, { ...all, [input]: values });
  }

  private data(): HistoryData {
    if (this.pending) return this.pending;
    const stored = this.state.get<unknown>(HISTORY_KEY);
    return isJsonObject(stored) ? (stored as unknown as HistoryData) : {};
  }
}
