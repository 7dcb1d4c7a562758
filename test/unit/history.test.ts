import * as assert from 'node:assert/strict';
import { addRun, findRun, runsOf, type HistoryData, type RunRecord } from '../../src/core/history';

function run(resource: string, n: number, response: Record<string, string> = { response: `answer ${n}` }): RunRecord {
  return {
    id: `${resource}-${n}`,
    resource,
    resourceLabel: resource,
    operation: 'test_prompt',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    durationMs: 5,
    inputs: { prompt_text: `question ${n}` },
    outcome: { kind: 'ok', response },
    version: { savedHash: 'abcd1234', unsavedChanges: false },
  };
}

describe('run history', () => {
  it('keeps the newest runs of a resource first, up to the limit', () => {
    let history: HistoryData = {};
    for (let n = 1; n <= 5; n++)
      history = addRun(history, run('a', n), { runsPerResource: 3, resources: 10, maxStringLength: 100 });
    assert.deepEqual(
      runsOf(history, 'a').map((r) => r.id),
      ['a-5', 'a-4', 'a-3'],
    );
    assert.equal(findRun(history, 'a', 'a-4')?.inputs.prompt_text, 'question 4');
  });

  it('drops the resources run least recently beyond the limit', () => {
    let history: HistoryData = {};
    ['a', 'b', 'c', 'd'].forEach(
      (resource, n) =>
        (history = addRun(history, run(resource, n), { runsPerResource: 3, resources: 3, maxStringLength: 100 })),
    );
    assert.deepEqual(Object.keys(history).sort(), ['b', 'c', 'd']);
  });

  it('cuts very long strings, saying so, to keep the storage bounded', () => {
    const history = addRun({}, run('a', 1, { response: 'x'.repeat(50) }), {
      runsPerResource: 3,
      resources: 3,
      maxStringLength: 10,
    });
    const stored = runsOf(history, 'a')[0];
    assert.ok(stored?.outcome.kind === 'ok');
    assert.equal(stored.outcome.response.response, `${'x'.repeat(10)}… [40 more characters not kept in the history]`);
  });

  it('keeps a parameter named __proto__ as data', () => {
    const typed = {
      ...run('a', 1),
      inputs: {
        prompt_text: 'hi',
        prompt_params: JSON.parse('{"__proto__": "x", "name": "Ada"}') as Record<string, string>,
      },
    };
    const stored = runsOf(addRun({}, typed), 'a')[0];
    assert.equal(JSON.stringify(stored?.inputs.prompt_params), '{"__proto__":"x","name":"Ada"}');
    assert.equal(Object.getPrototypeOf(stored?.inputs.prompt_params), Object.prototype);
  });

  it('survives a JSON round trip, as extension storage does', () => {
    const history = addRun({}, run('a', 1));
    assert.deepEqual(JSON.parse(JSON.stringify(history)), history);
  });
});
