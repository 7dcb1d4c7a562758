import * as assert from 'node:assert/strict';
import {
  answerLacksDetail,
  conflictingFields,
  isCausedByEdit,
  ownedFieldChanges,
  sentBody,
  updateBody,
} from '../../src/core/save-plan';
import { kindById } from '../../src/core/resources';

const agent = kindById('agent');
const prompt = kindById('prompt');

describe('save plan', () => {
  it('names every service-owned field whose value changed', () => {
    const base = { id: 3, tenant_id: 1, number: '+15550003', name: 'Agent' };
    const problems = ownedFieldChanges(agent, base, { id: 4, tenant_id: 1, number: '+1999', name: 'Renamed' });
    assert.deepEqual(
      problems.map((p) => p.path),
      [['id'], ['number']],
    );
    assert.match(problems[0]?.message ?? '', /^id: owned by the service and cannot be changed; put back 3$/);
  });

  it('lets a service-owned field be left out, since it is not sent', () => {
    assert.deepEqual(ownedFieldChanges(agent, { id: 3, number: 'x' }, { name: 'Agent' }), []);
  });

  it('sends only the editable fields the document holds', () => {
    const body = updateBody(prompt, { id: 3, tenant_id: 1, name: 'P', temparature: 0.2, unknown: true });
    assert.deepEqual(body, { name: 'P', temparature: 0.2 });
  });

  it('sends only name, prompt, initial_response and voice per agent prompt element', () => {
    const body = updateBody(agent, {
      id: 5,
      number: '+1',
      name: 'A',
      description: 'd',
      configuration: {
        name: 'A',
        description: 'd',
        prompt: [
          {
            id: 9,
            name: 'main',
            prompt: 'Hi',
            initial_response: 'Hello',
            voice: 'echo',
            function_ids: [1],
            tools: [],
            actions: {},
            integration: { bearer_token: 's' },
          },
        ],
      },
    });
    assert.deepEqual(body, {
      name: 'A',
      description: 'd',
      configuration: { prompt: [{ name: 'main', prompt: 'Hi', initial_response: 'Hello', voice: 'echo' }] },
    });
  });

  it('blocks a save only for problems in what the user changed', () => {
    const problem = (
      ...path: Array<string | number>
    ): { path: Array<string | number>; keyword: string; message: string } => ({ path, keyword: 'x', message: '' });
    const base = { parent_tenant: 2, configuration: { prompt: [{ extra: 1, voice: 'odd' }] } };
    assert.equal(
      isCausedByEdit(base, { ...base, temperature: 0.3 }, problem('temperature')),
      true,
      'a typo the user added',
    );
    assert.equal(isCausedByEdit(base, { ...base }, problem('parent_tenant')), false, 'a field the service sent');
    assert.equal(
      isCausedByEdit(base, { ...base }, problem('configuration', 'prompt', 0, 'extra')),
      false,
      'nested, from the service',
    );
    const changedVoice = { ...base, configuration: { prompt: [{ extra: 1, voice: 'loud' }] } };
    assert.equal(
      isCausedByEdit(base, changedVoice, problem('configuration', 'prompt', 0, 'voice')),
      true,
      'nested, changed by the user',
    );
    assert.equal(isCausedByEdit({ name: 'x' }, {}, problem('name')), true, 'a required field the user removed');
  });

  it('fetches the detail when the update answer lacks a key the detail had, for any kind', () => {
    assert.equal(answerLacksDetail({ id: 1, name: 'f' }, { id: 1, name: 'f' }), false);
    assert.equal(answerLacksDetail({ id: 1, name: 'f', extra: 1 }, { id: 1, name: 'f' }), false, 'more is fine');
    assert.equal(
      answerLacksDetail({ id: 1, name: 'f' }, { id: 1, name: 'f', updated_at: 't' }),
      true,
      'an extra detail field',
    );
    assert.equal(
      answerLacksDetail(
        { id: 1, name: 'T', auth_token: 'x' },
        { id: 1, name: 'T', auth_token: 'x', booked_package: 1 },
      ),
      true,
      'a tenant',
    );
  });

  describe('conflicts', () => {
    const intent = kindById('intent');
    const base = {
      id: 4,
      name: 'billing',
      display_name: 'Billing',
      ai_actions: [{ id: 1, name: 'Old' }],
      updated_at: 'a',
      tenant_id: 1,
    };

    it('are changes on the service to a field the save sends', () => {
      const current = { ...base, display_name: 'Billing (theirs)' };
      assert.deepEqual(conflictingFields(intent, ['name', 'display_name'], base, current, base), ['display_name']);
    });

    it('are not changes to read-only or derived fields, nor to fields the save does not send', () => {
      const current = { ...base, ai_actions: [{ id: 1, name: 'Renamed elsewhere' }], updated_at: 'b' };
      assert.deepEqual(conflictingFields(intent, ['name', 'display_name'], base, current, base), []);
      assert.deepEqual(
        conflictingFields(
          prompt,
          ['system'],
          { system: 'a', user_prompt: 'x' },
          { system: 'a', user_prompt: 'y' },
          { system: 'a', user_prompt: 'x' },
        ),
        [],
        'another part',
      );
    });

    it('of an agent compare what its configuration sends, not the service-kept parts of its elements', () => {
      const element = { id: 9, name: 'main', prompt: 'Hi', tools: [] };
      const agentBase = { configuration: { name: 'A', prompt: [element] } };
      assert.deepEqual(
        conflictingFields(
          agent,
          ['configuration'],
          agentBase,
          { configuration: { name: 'A', prompt: [{ ...element, tools: [1] }] } },
          agentBase,
        ),
        [],
      );
      assert.deepEqual(
        conflictingFields(
          agent,
          ['configuration'],
          agentBase,
          { configuration: { name: 'A', prompt: [{ ...element, prompt: 'Hey' }] } },
          agentBase,
        ),
        ['configuration'],
      );
    });

    it('are not changes the service holds exactly as the save sends them, such as an earlier save whose answer was lost', () => {
      const edited = { ...base, display_name: 'Billing (mine)', name: 'billing' };
      const current = { ...base, display_name: 'Billing (mine)', updated_at: 'b' };
      assert.deepEqual(conflictingFields(intent, ['name', 'display_name'], base, current, edited), []);
      assert.deepEqual(
        conflictingFields(intent, ['name', 'display_name'], base, { ...current, name: 'theirs' }, edited),
        ['name'],
        'another field of theirs still is',
      );
      const parameters = { type: 'object', properties: { q: { type: 'string' } } };
      const fn = kindById('function');
      assert.deepEqual(
        conflictingFields(
          fn,
          ['parameters'],
          { parameters: null },
          { parameters },
          { parameters: { properties: { q: { type: 'string' } }, type: 'object' } },
        ),
        [],
        'equal objects whatever the order of their keys',
      );
    });
  });

  it('sends only the fields the view sends, as the service takes them', () => {
    assert.deepEqual(sentBody(prompt, { id: 3, name: 'P', system: 'S', settings: '{}' }, ['system']), { system: 'S' });
    const edited = {
      configuration: { name: 'A', prompt: [{ id: 9, name: 'main', prompt: 'Hi', tools: [] }] },
      name: 'A',
    };
    assert.deepEqual(sentBody(agent, edited, ['configuration']), {
      configuration: { prompt: [{ name: 'main', prompt: 'Hi' }] },
    });
  });
});
