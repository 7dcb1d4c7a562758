import * as assert from 'node:assert/strict';
import { InputsForms, type InputsForm } from '../../src/core/inputs-form';
import { parseJsonObject } from '../../src/core/json';
import { draftOf, inputsOf, isServiceOperation, promptDraft } from '../../src/core/run-inputs';

describe('run inputs as a person edits them', () => {
  it('shows an object one key per line, and none as empty', () => {
    assert.deepEqual(draftOf('test_prompt', { prompt_text: 'Hi', prompt_params: { a: 1, b: 'x' } }), {
      text: 'Hi',
      json: '{\n  "a": 1,\n  "b": "x"\n}',
    });
    assert.deepEqual(draftOf('execute_action', { action: 'ping' }), { text: 'ping', json: '' });
  });

  it("starts Test Prompt with the prompt's placeholders, their last values and the last text", () => {
    const last = { prompt_text: 'Where is A-1?', prompt_params: { customer_name: 'Ada', gone: 'x' } };
    assert.deepEqual(promptDraft(['customer_name', 'order_id'], last, 'older text'), {
      text: 'Where is A-1?',
      json: '{\n  "customer_name": "Ada",\n  "order_id": ""\n}',
    });
    assert.deepEqual(promptDraft(['customer_name'], undefined, 'older text'), {
      text: 'older text',
      json: '{\n  "customer_name": ""\n}',
    });
    assert.deepEqual(promptDraft([], undefined), { text: '', json: '' }, 'no placeholders: no prompt_params');
  });

  it('turns a draft into the inputs sent, the object parsed', () => {
    assert.deepEqual(inputsOf('test_prompt', { text: 'Hi', json: '{"a": {"b": [1]}}' }), {
      prompt_text: 'Hi',
      prompt_params: { a: { b: [1] } },
    });
    assert.deepEqual(inputsOf('execute_action', { text: 'ping', json: '  ' }), { action: 'ping' });
  });

  it('refuses a draft naming the field and the fix', () => {
    assert.throws(
      () => inputsOf('test_prompt', { text: ' ', json: '' }),
      /^Error: prompt_text must not be empty: type the text/,
    );
    assert.throws(() => inputsOf('execute_action', { text: '', json: '' }), /^Error: action must not be empty/);
    assert.throws(
      () => inputsOf('test_prompt', { text: 'Hi', json: '{"a": }' }),
      /^Error: prompt_params must be a JSON object: .+\.$/,
    );
    assert.throws(
      () => inputsOf('execute_action', { text: 'ping', json: '[1]' }),
      /^Error: params must be a JSON object such as \{"name": "value"\}\.$/,
    );
    assert.throws(() => parseJsonObject('null', 'x'), /x must be a JSON object such as/);
  });

  it('knows the operations that have these inputs', () => {
    assert.ok(isServiceOperation('test_prompt') && isServiceOperation('execute_action'));
    assert.ok(!isServiceOperation('send_request'));
  });
});

describe('the inputs form waiting for an answer', () => {
  const place = { resource: 'convai://local/tenants/1/ai_prompts/3.json', label: 'Prompt 3' };
  const draft = { text: 'Hi', json: '{"who": "Ada"}' };
  const shown = (forms: InputsForms): InputsForm => {
    const form = forms.formFor(place.resource);
    assert.ok(form, 'a form is open');
    return form;
  };

  it('resolves with the inputs of a valid answer, once', async () => {
    const forms = new InputsForms();
    const answer = forms.ask(place, { operation: 'test_prompt', draft, suggestions: [] });
    const { id } = shown(forms);
    assert.equal(forms.formFor('convai://local/tenants/1/ai_prompts/4.json'), undefined, 'only with its own resource');
    assert.deepEqual(forms.answer(id, draft), place);
    assert.deepEqual(await answer, { prompt_text: 'Hi', prompt_params: { who: 'Ada' } });
    assert.equal(forms.formFor(place.resource), undefined, 'closed once answered');
    assert.equal(forms.answer(id, draft), undefined, 'a second answer changes nothing');
  });

  it('stays open showing the problem of an invalid answer, keeping what was typed', async () => {
    const forms = new InputsForms();
    const answer = forms.ask(place, { operation: 'test_prompt', draft, suggestions: [] });
    const { id } = shown(forms);
    const typed = { text: 'Hi', json: '{"who": Ada}' };
    assert.deepEqual(forms.answer(id, typed), place);
    assert.match(shown(forms).problem ?? '', /^prompt_params must be a JSON object: /);
    assert.deepEqual(shown(forms).draft, typed);
    forms.answer(id, { text: 'Hi', json: '' });
    assert.deepEqual(await answer, { prompt_text: 'Hi' });
  });

  it('runs nothing when closed, replaced or answered for another form', async () => {
    const forms = new InputsForms();
    const first = forms.ask(place, { operation: 'test_prompt', draft, suggestions: [] });
    const firstId = shown(forms).id;
    const second = forms.ask(place, { operation: 'test_prompt', draft, suggestions: [] });
    assert.equal(await first, undefined, 'replaced');
    assert.notEqual(shown(forms).id, firstId);
    assert.equal(forms.answer(firstId, draft), undefined, 'an answer from the earlier form');
    assert.equal(forms.close(firstId), undefined, 'closing the earlier form');
    assert.deepEqual(forms.close(shown(forms).id), place);
    assert.equal(await second, undefined, 'closed');
    assert.equal(forms.place, undefined);
  });
});
