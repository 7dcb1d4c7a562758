import * as assert from 'node:assert/strict';
import { fromStoredDraft, toStoredDraft } from '../../src/core/draft-storage';
import { viewOf } from '../../src/core/document-views';
import { serviceBase } from '../../src/core/service-base';

describe('the service base of a document', () => {
  const agent = (): {
    id: number;
    name: string;
    configuration: { prompt: Array<{ name: string; prompt: string }> };
  } => ({ id: 7, name: 'Desk', configuration: { prompt: [{ name: 'intro', prompt: 'Hello' }] } });

  it('is the detail object itself, frozen to its depths, so one parse serves every reader', () => {
    const detail = agent();
    const base = serviceBase(detail);
    assert.equal(base, detail, 'not copied: the object the service answered is the base');
    assert.ok(
      Object.isFrozen(base) && Object.isFrozen(base.configuration) && Object.isFrozen(detail.configuration.prompt[0]),
    );
    assert.throws(
      () => {
        (detail.configuration.prompt[0] as { prompt: string }).prompt = 'changed';
      },
      TypeError,
      'a reader cannot change what another compares against',
    );
  });

  it('is read by every view without being changed, whatever the edit', () => {
    const base = serviceBase(agent());
    const part = viewOf({
      type: 'agentPrompt',
      connection: 'c',
      tenantId: 1,
      segment: 'agents',
      id: 7,
      element: 'intro',
    }).read('Hi there', base);
    assert.ok(part.ok);
    assert.deepEqual(base, agent(), 'the base is as the service said');
    const whole = viewOf({ type: 'resource', connection: 'c', tenantId: 1, segment: 'agents', id: 7 }).read(
      JSON.stringify({ ...agent(), name: 'Front desk' }),
      base,
    );
    assert.ok(whole.ok);
    assert.equal(whole.edited.name, 'Front desk');
    assert.equal(base.name, 'Desk');
  });

  it('freezes an object that shares parts with an earlier base', () => {
    const first = serviceBase(agent());
    const second = serviceBase({ ...first, name: 'Renamed' });
    assert.ok(Object.isFrozen(second));
    assert.equal(second.configuration, first.configuration, 'the unchanged part is shared, not copied');
  });

  it('comes back from a stored draft parsed and frozen', () => {
    const draft = { text: 'Hi', base: serviceBase(agent()), why: 'auto-save does not upload' };
    const restored = fromStoredDraft('agent', toStoredDraft('agent', draft), agent());
    assert.deepEqual(restored.base, agent());
    assert.ok(Object.isFrozen(restored.base.configuration));
  });
});
