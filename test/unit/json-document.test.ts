import * as assert from 'node:assert/strict';
import { formatDocument, locate, locateKey, parseDocument, type TextRange } from '../../src/core/json-document';

const AGENT = formatDocument({
  id: 5,
  name: 'Acme Chat Assistant',
  configuration: {
    name: 'Acme Chat Assistant',
    prompt: [
      { name: 'Greeting', voice: 'alloy' },
      { name: 'Order Status', voice: 'sage' },
    ],
  },
});

function textAt(text: string, range: TextRange | undefined): string | undefined {
  return range && text.slice(range.offset, range.offset + range.length);
}

describe('json-document: parseDocument', () => {
  it('parses strict JSON without problems', () => {
    assert.deepEqual(parseDocument('{ "name": "x", "list": [1, null] }'), {
      value: { name: 'x', list: [1, null] },
      syntaxProblems: [],
    });
  });

  it('reports a missing comma where the next property starts', () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    const { value, syntaxProblems } = parseDocument(text);
    assert.equal(value, undefined);
    assert.deepEqual(
      syntaxProblems.map((p) => [p.message, p.offset]),
      [['Expected a comma', text.indexOf('"b"')]],
    );
  });

  it('reports a trailing comma at the comma, in objects and arrays', () => {
    const object = '{ "a": 1, }';
    assert.deepEqual(parseDocument(object).syntaxProblems, [
      { offset: object.indexOf(','), length: 1, message: 'Trailing comma is not allowed' },
    ]);
    const array = '{ "a": [1, 2,\n ] }';
    assert.deepEqual(parseDocument(array).syntaxProblems, [
      { offset: array.lastIndexOf(','), length: 1, message: 'Trailing comma is not allowed' },
    ]);
  });

  it('refuses comments, because the service stores JSON', () => {
    const text = '{ "a": 1 // note\n}';
    const problems = parseDocument(text).syntaxProblems;
    assert.deepEqual(
      problems.map((p) => [p.message, p.offset, p.length]),
      [['Comments are not allowed in JSON', text.indexOf('//'), '// note'.length]],
    );
    assert.equal(parseDocument('/* c */ {}').syntaxProblems[0]?.offset, 0);
  });

  it('names an empty document, a missing value and text after the end', () => {
    assert.match(parseDocument('  \n').syntaxProblems[0]?.message ?? '', /empty/);
    assert.deepEqual(
      parseDocument('{"a":}').syntaxProblems.map((p) => [p.message, p.offset]),
      [['Expected a value', 5]],
    );
    assert.deepEqual(
      parseDocument('{"a":1}}').syntaxProblems.map((p) => [p.message, p.offset]),
      [['Expected the end of the text', 7]],
    );
  });

  it('reports one problem per spot even where the parser reports several', () => {
    const offsets = parseDocument('{"a":1,,"b":2}').syntaxProblems.map((p) => p.offset);
    assert.deepEqual(offsets, [...new Set(offsets)]);
  });

  it('keeps `__proto__` as an ordinary own key, like JSON.parse', () => {
    const { value } = parseDocument('{"__proto__": {"polluted": true}}');
    assert.ok(value && typeof value === 'object' && Object.hasOwn(value, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('json-document: formatDocument', () => {
  it('indents by two spaces and ends with a newline', () => {
    assert.equal(formatDocument({ a: [1], b: null }), '{\n  "a": [\n    1\n  ],\n  "b": null\n}\n');
  });

  it('round-trips through parseDocument', () => {
    const value = { name: 'x', settings: '{"language":"en"}', nested: { list: [1, 'two'] } };
    assert.deepEqual(parseDocument(formatDocument(value)).value, value);
  });
});

describe('json-document: locate and locateKey', () => {
  it('finds the value at a nested path', () => {
    assert.equal(textAt(AGENT, locate(AGENT, ['configuration', 'prompt', 1, 'voice'])), '"sage"');
    assert.equal(textAt(AGENT, locate(AGENT, ['id'])), '5');
    assert.equal(textAt(AGENT, locate(AGENT, [])), AGENT.trimEnd());
  });

  it('falls back to the closest existing ancestor for a missing property or element', () => {
    const firstElement = textAt(AGENT, locate(AGENT, ['configuration', 'prompt', 0]));
    assert.equal(textAt(AGENT, locate(AGENT, ['configuration', 'prompt', 0, 'initial_response'])), firstElement);
    const prompts = textAt(AGENT, locate(AGENT, ['configuration', 'prompt']));
    assert.equal(textAt(AGENT, locate(AGENT, ['configuration', 'prompt', 7, 'voice'])), prompts);
    assert.equal(textAt(AGENT, locate(AGENT, ['description'])), AGENT.trimEnd());
  });

  it('does not index an object by number or an array by name', () => {
    assert.equal(textAt(AGENT, locate(AGENT, ['configuration', 0])), textAt(AGENT, locate(AGENT, ['configuration'])));
    assert.equal(
      textAt(AGENT, locate(AGENT, ['configuration', 'prompt', 'name'])),
      textAt(AGENT, locate(AGENT, ['configuration', 'prompt'])),
    );
  });

  it('finds the key of a property', () => {
    const range = locateKey(AGENT, ['configuration', 'prompt', 1, 'voice']);
    assert.equal(textAt(AGENT, range), '"voice"');
    assert.ok(range && range.offset > AGENT.indexOf('Order Status'));
    assert.equal(textAt(AGENT, locateKey(AGENT, ['name'])), '"name"');
  });

  it('gives locate’s range where there is no key', () => {
    assert.deepEqual(locateKey(AGENT, ['configuration', 'prompt', 0]), locate(AGENT, ['configuration', 'prompt', 0]));
    assert.deepEqual(locateKey(AGENT, ['temperature']), locate(AGENT, []));
  });

  it('still locates in text with syntax errors, and gives up only without a tree', () => {
    const broken = '{ "name": "x" "mode": 7 }';
    assert.equal(textAt(broken, locate(broken, ['mode'])), '7');
    assert.equal(locate('', ['name']), undefined);
    assert.equal(locateKey('   ', ['name']), undefined);
  });
});
