import * as assert from 'node:assert/strict';
import { planTrial, type Proposal } from '../../src/core/trials/trial-plan';
import { isTrialCopy, newTrialTag, trialCopyName, trialTagOf } from '../../src/core/trials/trial-names';
import { TrialRoute } from '../../src/core/trials/trial-run';
import type { JsonObject } from '../../src/core/json';

function live(id: number, fields: JsonObject = {}): [number, JsonObject] {
  return [
    id,
    { id, name: `P${id}`, system: 'Be kind.', ai_model: 'gpt', next_prompt_id: null, exit_prompt_id: null, ...fields },
  ];
}

describe('trials: which prompts get copies', () => {
  it('copies a prompt whose proposed fields differ from the live ones, and never an unchanged one', () => {
    const service = new Map([live(1), live(2)]);
    const plan = planTrial(
      [
        { id: 1, name: 'P1', fields: { system: 'Be brief.' } },
        { id: 2, name: 'P2', fields: { system: 'Be kind.', ai_model: 'gpt' } },
      ],
      service,
    );
    assert.deepEqual(
      plan.copies.map((c) => c.id),
      [1],
    );
    const [copy] = plan.copies;
    assert.equal(copy?.fields.system, 'Be brief.', 'the proposal over the live fields');
    assert.equal(copy?.fields.ai_model, 'gpt', 'a field the proposal leaves out stays as it is live');
    assert.equal(copy?.fields.id, undefined, 'only editable fields are sent');
    assert.equal(plan.requests, 2, 'a create and a delete');
  });

  it('compares values as JSON, whatever the order of their keys', () => {
    const service = new Map([live(1, { settings: { a: 1, b: 2 } })]);
    const plan = planTrial([{ id: 1, name: 'P1', fields: { settings: { b: 2, a: 1 } } }], service);
    assert.equal(plan.copies.length, 0);
  });

  it("links a copy to a created prompt's copy by the file a folder names it with", () => {
    const service = new Map([live(1)]);
    const plan = planTrial(
      [
        { id: 1, name: 'P1', fields: { next_prompt_id: 'ai_prompts/new.json' } },
        { file: 'ai_prompts/new.json', name: 'New', fields: { name: 'New' } },
      ],
      service,
    );
    assert.deepEqual(
      plan.copies.map((c) => [c.name, c.links]),
      [
        ['New', []],
        ['P1', [{ field: 'next_prompt_id', target: 0, atCreate: true }]],
      ],
    );
  });

  it('copies a prompt the change creates, with its own fields only', () => {
    const plan = planTrial([{ name: 'New', fields: { name: 'New', system: 'Hi' } }], new Map());
    assert.deepEqual(plan.copies, [{ name: 'New', fields: { name: 'New', system: 'Hi' }, links: [] }]);
  });

  it('creates a copy after the copies it hands over to, so its create names them', () => {
    const service = new Map([live(1, { next_prompt_id: 2, exit_prompt_id: 3 }), live(2), live(3)]);
    const proposals: Proposal[] = [
      { id: 1, name: 'P1', fields: { system: 'a' } },
      { id: 2, name: 'P2', fields: { system: 'b' } },
    ];
    const plan = planTrial(proposals, service);
    assert.deepEqual(
      plan.copies.map((c) => [c.id, c.links]),
      [
        [2, []],
        [1, [{ field: 'next_prompt_id', target: 0, atCreate: true }]],
      ],
      'the exit to prompt 3, which is not copied, stays live',
    );
    assert.equal(plan.requests, 4);
  });

  it('points a cycle of hand-overs at the copies with one update, counted in its requests', () => {
    const service = new Map([
      live(1, { next_prompt_id: 2 }),
      live(2, { next_prompt_id: 1 }),
      live(3, { exit_prompt_id: 3 }),
    ]);
    const plan = planTrial(
      [
        { id: 1, name: 'P1', fields: { system: 'a' } },
        { id: 2, name: 'P2', fields: { system: 'b' } },
        { id: 3, name: 'P3', fields: { system: 'c' } },
      ],
      service,
    );
    const late = plan.copies.flatMap((c) =>
      c.links.filter((l) => !l.atCreate).map((l) => [c.id, plan.copies[l.target]?.id]),
    );
    assert.deepEqual(
      late,
      [
        [2, 1],
        [3, 3],
      ],
      'the second of the cycle waits for the first, and a prompt that exits to itself for its own copy',
    );
    assert.equal(plan.requests, 2 * 3 + 2);
  });
});

describe('trials: the mark of a copy', () => {
  it('names a copy [trial <tag>] <name> with 8 lowercase hex characters, and tells copies from prompts', () => {
    const tag = newTrialTag();
    assert.match(tag, /^[0-9a-f]{8}$/);
    assert.notEqual(newTrialTag(), tag);
    const name = trialCopyName(tag, 'Greeting');
    assert.equal(name, `[trial ${tag}] Greeting`);
    assert.equal(trialTagOf(name), tag);
    assert.equal(isTrialCopy({ name }), true);
    for (const other of [
      'Greeting',
      '[trial 1234] Greeting',
      '[trial ABCDEF12] Greeting',
      ' [trial abcdef12] x',
      undefined,
    ])
      assert.equal(isTrialCopy({ name: other }), false, String(other));
  });
});

describe('trials: the route of requests', () => {
  it('sends what names a copied prompt to its copy and reads a copy as its live prompt', () => {
    const route = new TrialRoute([
      { id: 1, copy: 101, name: 'P1' },
      { copy: 102, name: 'New' },
    ]);
    assert.equal(route.copyOf(1), 101);
    assert.equal(route.copyOf(2), 2, 'an unchanged prompt answers live');
    assert.equal(route.liveOf(101), 1);
    assert.equal(route.liveOf(102), 102, 'a created prompt has only its copy');
    assert.deepEqual(route.created, [{ id: 102, name: 'New' }]);
  });
});
