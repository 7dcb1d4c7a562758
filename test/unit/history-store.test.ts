import * as assert from 'node:assert/strict';
import type { RunRecord } from '../../src/core/history';
import { HistoryStore } from '../../src/shared/history-store';

/** A memento whose value changes only once an update is done, as a storage that writes asynchronously may behave. */
function laggingMemento(): { get<T>(key: string): T | undefined; update(key: string, value: unknown): Promise<void> } {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: (key, value) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          values.set(key, value);
          resolve();
        }),
      ),
  };
}

function run(index: number): RunRecord {
  return {
    id: `run-${index}`,
    resource: 'convai://c/tenants/1/ai_prompts/2.json',
    resourceLabel: 'Order Triage',
    operation: 'test_prompt',
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    inputs: {},
    outcome: { kind: 'ok', response: {} },
    version: { unsavedChanges: false },
  };
}

describe('the run history store', () => {
  it('keeps every run of a suite whose cases finish together, though the storage lags behind', async () => {
    const store = new HistoryStore(laggingMemento());
    await Promise.all([0, 1, 2, 3, 4, 5, 6].map((index) => store.add(run(index))));
    assert.deepEqual(
      store
        .runs('convai://c/tenants/1/ai_prompts/2.json')
        .map((r) => r.id)
        .sort(),
      ['run-0', 'run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6'],
    );
  });
});
