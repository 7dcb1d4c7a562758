import type * as vscode from 'vscode';
import { addRun, runsOf, type HistoryData, type RunRecord } from '../core/history';

const HISTORY_KEY = 'convai.runHistory';
const RECENT_KEY = 'convai.recentInputs';
const RECENT_LIMIT = 10;

/** Run history and recent inputs in the extension's global storage, so both survive restarts. */
export class HistoryStore {
  constructor(private readonly state: vscode.Memento) {}

  runs(resource: string): RunRecord[] {
    return runsOf(this.data(), resource);
  }

  /** The newest run of all, for bringing the panel back when it did not say what it showed. */
  newest(): RunRecord | undefined {
    // addRun keeps the most recently run resource first.
    return Object.values(this.data())[0]?.[0];
  }

  async add(run: RunRecord): Promise<void> {
    await this.state.update(HISTORY_KEY, addRun(this.data(), run));
  }

  /** Recent values of one input (prompt texts, action names), newest first. */
  recent(input: string): string[] {
    const all = this.state.get<Record<string, string[]>>(RECENT_KEY, {});
    return Array.isArray(all[input]) ? all[input] : [];
  }

  async remember(input: string, value: string): Promise<void> {
    const all = this.state.get<Record<string, string[]>>(RECENT_KEY, {});
    const values = [value, ...(all[input] ?? []).filter((v) => v !== value)].slice(0, RECENT_LIMIT);
    await this.state.update(RECENT_KEY, { ...all, [input]: values });
  }

  private data(): HistoryData {
    const stored = this.state.get<unknown>(HISTORY_KEY);
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as HistoryData) : {};
  }
}
