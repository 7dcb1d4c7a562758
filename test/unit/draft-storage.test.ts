import * as assert from 'node:assert/strict';
import { fromStoredDraft, toStoredDraft } from '../../src/core/draft-storage';
import { formatDocument } from '../../src/core/json-document';
import { serviceBase } from '../../src/core/service-base';

describe('draft storage', () => {
  const integration = { id: 4, name: 'CRM', tec_params: { api_key: 'sk-live-123', model: 'gpt' } };
  const draft = {
    text: '{ "name": "CRM 2" }',
    base: serviceBase(structuredClone(integration)),
    why: 'auto-save does not upload',
  };

  it('stores the base without its credentials', () => {
    const stored = toStoredDraft('integration', draft);
    assert.ok(!JSON.stringify(stored).includes('sk-live-123'));
    assert.equal(stored.text, draft.text);
    assert.equal(stored.why, draft.why);
  });

  it("gives the base its credentials back from the service's current object", () => {
    const current = { ...integration, name: 'CRM renamed' };
    const restored = fromStoredDraft('integration', toStoredDraft('integration', draft), current);
    assert.deepEqual(restored.base, integration, 'the base is what the text was edited from, credentials included');
    assert.equal(restored.text, draft.text);
  });

  it('keeps a base without credentials as it was', () => {
    const prompt = { id: 2, name: 'Greeting', system: 'Be brief.' };
    const stored = toStoredDraft('prompt', { ...draft, base: serviceBase({ ...prompt }) });
    assert.equal(stored.maskedBase, formatDocument(prompt));
    assert.deepEqual(fromStoredDraft('prompt', stored, { ...prompt, system: 'changed' }).base, prompt);
  });
});
