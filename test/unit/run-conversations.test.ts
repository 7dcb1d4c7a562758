import * as assert from 'node:assert/strict';
import { conversationCase, conversationTurns, linkAfter, nextStep, promptIdOf } from '../../src/core/run-conversations';
import type { RunRecord } from '../../src/core/history';
import type { JsonObject } from '../../src/core/json';
import { renderResults } from '../../src/operations/render';

const uri = (id: number): string => `convai://local/tenants/1/ai_prompts/${id}.json`;

function turn(id: string, prompt: number, inputs: JsonObject, answer: JsonObject, before?: RunRecord): RunRecord {
  return {
    id,
    resource: uri(prompt),
    resourceLabel: `prompt ${prompt}`,
    operation: 'test_prompt',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5,
    inputs,
    outcome: {
      kind: 'ok',
      response: { response: `answer ${id}`, altered_prompt: '', next_prompt_params: {}, ...answer },
    },
    version: { unsavedChanges: false },
    ...(before ? { conversation: linkAfter(before) } : {}),
  };
}

const first = turn(
  'a',
  1,
  { prompt_text: 'Hello', prompt_params: { caller: 'Ada' } },
  { next_prompt_id: 2, next_prompt_params: { caller: 'Ada', topic: 'refund' } },
);
const second = turn(
  'b',
  2,
  { prompt_text: 'Money back', prompt_params: { caller: 'Ada', topic: 'refund' } },
  { next_prompt_id: 3, next_prompt_params: { caller: 'Ada', topic: 'refund' } },
  first,
);
const third = turn(
  'c',
  3,
  { prompt_text: 'Bye', prompt_params: { caller: 'Ada', topic: 'refund', mood: 'calm' } },
  { next_prompt_id: null },
  second,
);
const all = [first, second, third];
const find = (resource: string, runId: string): RunRecord | undefined =>
  all.find((r) => r.resource === resource && r.id === runId);

describe('conversations in the results panel', () => {
  it('hands on to the prompt the answer names, with the parameters it carried', () => {
    assert.deepEqual(nextStep(first), { promptId: 2, params: { caller: 'Ada', topic: 'refund' } });
    assert.equal(nextStep(third), undefined, 'no next prompt, no next turn');
    assert.equal(nextStep({ ...first, outcome: { kind: 'error', message: 'down' } }), undefined);
    assert.deepEqual(second.conversation, { turn: 2, previous: { resource: uri(1), runId: 'a' } });
    assert.equal(third.conversation?.turn, 3);
    assert.equal(promptIdOf(uri(12)), 12);
  });

  it('finds the turns oldest first, starting where the history lost one', () => {
    assert.deepEqual(
      conversationTurns(third, find).map((r) => r.id),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      conversationTurns(third, (resource, id) => (id === 'a' ? undefined : find(resource, id))).map((r) => r.id),
      ['b', 'c'],
    );
    assert.deepEqual(
      conversationTurns(first, find).map((r) => r.id),
      ['a'],
    );
  });

  it("writes a case of the turns: the first params the case's, a later turn's own only where they differ, the answering prompt expected", () => {
    const names: Record<string, string> = { [uri(1)]: 'Greeting', [uri(2)]: 'Billing', [uri(3)]: 'Closing' };
    const made = conversationCase(all, (run) => names[run.resource] ?? '', new Set(['conversation: Hello']));
    assert.deepEqual(made, {
      name: 'conversation: Hello (2)',
      prompt_params: { caller: 'Ada' },
      turns: [
        { prompt_text: 'Hello', expect: { prompt: 'Greeting' } },
        { prompt_text: 'Money back', expect: { prompt: 'Billing' } },
        { prompt_text: 'Bye', prompt_params: { mood: 'calm' }, expect: { prompt: 'Closing' } },
      ],
    });
  });

  it('offers Continue Conversation where the answer names a next prompt, and shows the turns with the prompts by name', () => {
    const assets = { nonce: 'n', cspSource: 'c', scriptUri: 's', styleUri: 't' };
    const page = (selected: RunRecord, conversation?: RunRecord[]): string =>
      renderResults(
        {
          resource: selected.resource,
          resourceLabel: 'x',
          runs: [selected],
          selected,
          conversation,
          promptNames: { 1: 'Greeting', 2: 'Billing' },
        },
        assets,
      );
    const start = page(first);
    assert.ok(start.includes('data-action="continueConversation" data-run="a"'));
    assert.ok(!start.includes('saveAsConversationCase'), 'a first turn alone is no conversation yet');
    const end = page(third, all);
    assert.ok(!end.includes('continueConversation'), 'no next prompt named, nothing to continue');
    assert.ok(end.includes('data-action="saveAsConversationCase" data-run="c"'));
    const turns = end.slice(end.indexOf('<ol class="conversation"'), end.indexOf('</ol>'));
    assert.match(
      turns,
      /Sent:<\/span> Hello<\/p>\n<p class="turn-prompt"><span class="turn-label">Answered by:<\/span> &quot;Greeting&quot; \(prompt 1\)/,
    );
    assert.match(
      turns,
      /Answered by:<\/span> prompt 3<\/p>\n<pre class="turn-answer" tabindex="0">\nanswer c<\/pre>/,
      'a prompt not in the listing by its id',
    );
  });
});
