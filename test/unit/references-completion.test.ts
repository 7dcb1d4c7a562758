import * as assert from 'node:assert/strict';
import { formatDocument } from '../../src/core/json-document';
import { completionFilterText, isTypedName, referenceValueAt } from '../../src/core/references';

/** `|` marks the cursor; the result shows the field and the replaced text with the cursor in it. */
function at(marked: string, segment: 'ai_prompts' | 'intents' = 'ai_prompts'): string | undefined {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  const edit = referenceValueAt(text, segment, offset);
  if (!edit) return undefined;
  const { offset: start, length } = edit.range;
  assert.equal(edit.current, text.slice(start, start + length));
  return `${edit.reference.field}:${text.slice(start, offset)}|${text.slice(offset, start + length)}`;
}

const PROMPT = formatDocument({ id: 3, name: 'Order Triage', next_prompt_id: 4, exit_prompt_id: null, voice: 'alloy' });

function marked(needle: string, cursorInNeedle: number, text = PROMPT): string {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, needle);
  return `${text.slice(0, index + cursorInNeedle)}|${text.slice(index + cursorInNeedle)}`;
}

describe('references: referenceValueAt (where completion edits)', () => {
  it('replaces a number or null value wherever the cursor sits in it', () => {
    assert.equal(at(marked('4,', 0)), 'next_prompt_id:|4');
    assert.equal(at(marked('4,', 1)), 'next_prompt_id:4|');
    assert.equal(at(marked('null', 2)), 'exit_prompt_id:nu|ll');
    assert.equal(at(marked('null', 4)), 'exit_prompt_id:null|');
  });

  it('replaces the whole value from a cursor between the colon and the value', () => {
    assert.equal(at(marked(': 4', 1)), 'next_prompt_id:| 4');
  });

  it('offers nothing in the key, after the value, elsewhere or in another kind fields', () => {
    assert.equal(at(marked('next_prompt_id', 3)), undefined);
    assert.equal(at(marked('4,', 2)), undefined);
    assert.equal(at(marked('alloy', 1)), undefined);
    assert.equal(at(marked('4,', 1), 'intents'), undefined);
  });

  it('takes an empty value, or a word typed where the value goes', () => {
    assert.equal(at('{\n  "next_prompt_id": |\n}'), 'next_prompt_id:|');
    assert.equal(at('{\n  "next_prompt_id": |,\n  "voice": "alloy"\n}'), 'next_prompt_id:|');
    assert.equal(at('{\n  "next_prompt_id": Ord|\n}'), 'next_prompt_id:Ord|');
    assert.equal(at('{\n  "next_prompt_id": O|rd, "x": 1\n}'), 'next_prompt_id:O|rd');
    assert.equal(at('{ "next_prompt_id":|}'), 'next_prompt_id:|');
  });

  it('replaces a string value whole, and offers nothing inside an object value or a nested key', () => {
    assert.equal(at('{ "next_prompt_id": "Or|" }'), 'next_prompt_id:"Or|"');
    assert.equal(at('{ "next_prompt_id": { "id": |4 } }'), undefined);
    assert.equal(at('{ "settings": { "next_prompt_id": |4 } }'), undefined);
  });

  it('keeps the range on the cursor line', () => {
    assert.equal(at('{\n  "next_prompt_id":|\n    4\n}'), undefined);
  });

  it('works on CRLF text', () => {
    const crlf = PROMPT.replace(/\n/g, '\r\n');
    assert.equal(at(marked('4,', 1, crlf)), 'next_prompt_id:4|');
    assert.equal(at('{\r\n  "next_prompt_id": Ord|\r\n}'), 'next_prompt_id:Ord|');
  });

  it('gives the intent fields of an intent', () => {
    assert.equal(at('{ "parent_id": 1|, "ai_prompt_id": 2 }', 'intents'), 'parent_id:1|');
    assert.equal(at('{ "parent_id": 1, "ai_prompt_id": |2 }', 'intents'), 'ai_prompt_id:|2');
  });
});

describe('references: completionFilterText', () => {
  it('lets every item match a literal in place, so null and a number filter nothing away', () => {
    assert.equal(completionFilterText('null', 'Order Resolution'), 'null Order Resolution');
    assert.equal(completionFilterText('42', 'Order Resolution'), '42 Order Resolution');
  });

  it('lets a typed word search the names', () => {
    assert.equal(completionFilterText('Ord', 'Order Resolution'), 'Order Resolution');
    assert.equal(completionFilterText('', 'Order Resolution'), 'Order Resolution');
  });

  it('tells a typed name, which completion looks up in the names, from nothing, null or a number', () => {
    assert.deepEqual(['Ord', 'Order Res', '3a'].map(isTypedName), [true, true, true]);
    assert.deepEqual(['', '  ', 'null', '42', '-1.5e3'].map(isTypedName), [false, false, false, false, false]);
  });
});
