import * as assert from 'node:assert/strict';
import { nestByParent, resourceLabel } from '../../src/core/labels';
import { findReferences, mergeKnown, referringKinds } from '../../src/core/references';

describe('tree labels from summary fields', () => {
  it('names a prompt type, mode and group', () => {
    const label = resourceLabel('prompt', {
      id: 4,
      name: 'Routing',
      description: 'd',
      prompt_type: 2,
      group: 'support',
      mode: 3,
    });
    assert.deepEqual([label.label, label.description], ['Routing', 'Group · Simulated · group support']);
    assert.ok(label.details.includes('prompt_type: Group (2)'), label.details.join('\n'));
    assert.ok(label.details.includes('mode: Simulated (3)'), label.details.join('\n'));
  });

  it('reads every kind in the service domain', () => {
    assert.equal(
      resourceLabel('action', { id: 1, name: 'Billing', action_type: 2, forward_number: '+49 30 1' }).description,
      'Forward · +49 30 1',
    );
    assert.equal(resourceLabel('agent', { id: 1, name: 'Front desk', number: '+15550001' }).description, '+15550001');
    assert.equal(
      resourceLabel('datasource', { id: 1, name: 'FAQ', type: 'webpage', status: 'active' }).description,
      'webpage · active',
    );
    assert.equal(
      resourceLabel('integration', { id: 1, name: 'LLM', system: 'openai', mode: 'activated' }).description,
      'openai · activated',
    );
    assert.equal(resourceLabel('tenant', { id: 2, name: 'Voicebox', booked_package: 2 }).description, 'voice');
    const intent = resourceLabel('intent', {
      id: 1,
      name: 'cancel_order',
      display_name: 'Cancel order',
      intent_type: 2,
    });
    assert.deepEqual([intent.label, intent.description], ['Cancel order', 'cancel_order · Group']);
  });

  it('falls back to the id when a name is missing', () => {
    assert.equal(resourceLabel('function', { id: 9 }).label, '#9');
  });
});

describe('intent hierarchy', () => {
  it('nests intents under their parent, keeping orphans and cycles at the top', () => {
    const tree = nestByParent([
      { id: 1, parent_id: null },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 2 },
      { id: 4, parent_id: 99 },
      { id: 5, parent_id: 6 },
      { id: 6, parent_id: 5 },
    ]);
    assert.deepEqual(
      tree.get(undefined)?.map((i) => i.id),
      [1, 4, 5, 6],
    );
    assert.deepEqual(
      tree.get(1)?.map((i) => i.id),
      [2],
    );
    assert.deepEqual(
      tree.get(2)?.map((i) => i.id),
      [3],
    );
  });
});

describe('references to a resource being deleted', () => {
  it('lists intents and prompts that point at a prompt', () => {
    const references = findReferences(
      { segment: 'ai_prompts', id: 7 },
      {
        intents: [
          { id: 1, name: 'greet', ai_prompt_id: 7 },
          { id: 2, name: 'other', ai_prompt_id: 8 },
        ],
        ai_prompts: [
          { id: 3, name: 'Start', next_prompt_id: 7 },
          { id: 4, name: 'Help', exit_prompt_id: 7 },
          { id: 7, name: 'Self', next_prompt_id: 7 },
        ],
      },
    );
    assert.deepEqual(
      references.map((r) => `${r.segment}/${r.id}:${r.field}`),
      ['intents/1:ai_prompt_id', 'ai_prompts/3:next_prompt_id', 'ai_prompts/4:exit_prompt_id'],
    );
  });

  it('lists child intents and actions using an integration', () => {
    assert.deepEqual(
      findReferences({ segment: 'intents', id: 1 }, { intents: [{ id: 2, name: 'child', parent_id: 1 }] }).map(
        (r) => r.id,
      ),
      [2],
    );
    assert.deepEqual(
      findReferences(
        { segment: 'integrations', id: 5 },
        { ai_actions: [{ id: 3, name: 'Call CRM', integration_id: 5 }] },
      ).map((r) => r.name),
      ['Call CRM'],
    );
  });

  it("merges what is known of each resource, a later source's fields winning, so a listing's summary and a detail make one object", () => {
    const known = mergeKnown([
      {
        ai_prompts: [
          { id: 3, name: 'Start' },
          { id: 4, name: 'Help' },
        ],
      },
      { ai_prompts: [{ id: 3, name: 'Start (pulled)', next_prompt_id: 9 }] },
      {
        ai_prompts: [{ id: 3, name: 'Start', next_prompt_id: 7 }],
        intents: [{ id: 1, ai_prompt_id: 7 }, { name: 'no id' }],
      },
    ]);
    assert.deepEqual(known, {
      ai_prompts: [
        { id: 3, name: 'Start', next_prompt_id: 7 },
        { id: 4, name: 'Help' },
      ],
      intents: [{ id: 1, ai_prompt_id: 7 }],
    });
    assert.deepEqual(
      findReferences({ segment: 'ai_prompts', id: 7 }, known).map((r) => `${r.segment}/${r.id}`),
      ['intents/1', 'ai_prompts/3'],
    );
  });

  it('says which kinds to read for a target', () => {
    assert.deepEqual(referringKinds('ai_prompts').sort(), ['ai_prompts', 'intents']);
    assert.deepEqual(referringKinds('datasources'), []);
  });
});
