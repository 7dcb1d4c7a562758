import * as assert from 'node:assert/strict';
import { isJsonObject, own, setAt, valueAt, type Json, type JsonObject } from '../../src/core/json';
import { lineAndColumn, lineColumnText, messageOf, plural } from '../../src/core/text';

describe('JSON helpers', () => {
  it('calls only a non-null, non-array object a JSON object', () => {
    assert.equal(isJsonObject({}), true);
    assert.equal(isJsonObject({ a: 1 }), true);
    for (const value of [null, undefined, [], [1], 'x', 0, true])
      assert.equal(isJsonObject(value), false, String(value));
  });

  it('reads own keys only', () => {
    const object = JSON.parse('{"a": 1, "__proto__": {"b": 2}}') as JsonObject;
    assert.equal(own(object, 'a'), 1);
    assert.deepEqual(own(object, '__proto__'), { b: 2 });
    assert.equal(own(object, 'constructor'), undefined);
    assert.equal(own(object, 'toString'), undefined);
  });

  it('finds the value at a path through objects and arrays, and undefined where the path leads nowhere', () => {
    const value: Json = { a: [{ b: 'x' }, 2], c: null };
    assert.deepEqual(valueAt(value, []), value);
    assert.equal(valueAt(value, ['a', 0, 'b']), 'x');
    assert.equal(valueAt(value, ['a', 1]), 2);
    assert.equal(valueAt(value, ['c']), null);
    assert.equal(valueAt(value, ['a', 5]), undefined);
    assert.equal(valueAt(value, ['a', '0']), undefined, 'a string step never indexes an array');
    assert.equal(valueAt(value, ['c', 'd']), undefined);
    assert.equal(valueAt(value, ['constructor']), undefined);
    assert.equal(valueAt(undefined, ['a']), undefined);
  });

  it('sets a value at a path in a copy, keeping key order and leaving the original alone', () => {
    const value: JsonObject = { a: [{ b: 'x', c: 1 }], d: 'y' };
    const next = setAt(value, ['a', 0, 'b'], 'z');
    assert.deepEqual(next, { a: [{ b: 'z', c: 1 }], d: 'y' });
    assert.deepEqual(Object.keys((next as { a: JsonObject[] }).a[0] as JsonObject), ['b', 'c']);
    assert.deepEqual(value, { a: [{ b: 'x', c: 1 }], d: 'y' });
    assert.equal(setAt(value, [], 7), 7);
  });

  it('never creates a path that does not exist', () => {
    const value: JsonObject = { a: [1], b: {} };
    assert.equal(setAt(value, ['x'], 1), value);
    assert.deepEqual(setAt(value, ['a', 3], 1), { a: [1], b: {} });
    assert.deepEqual(setAt(value, ['b', 'c', 'd'], 1), { a: [1], b: {} });
    assert.deepEqual(setAt(value, ['a', 'length'], 1), { a: [1], b: {} });
  });

  it('keeps a "__proto__" key as data when it sets inside it', () => {
    const value = JSON.parse('{"__proto__": {"token": "secret"}}') as JsonObject;
    const next = setAt(value, ['__proto__', 'token'], 'masked') as JsonObject;
    assert.equal(Object.getPrototypeOf(next), Object.prototype);
    assert.deepEqual(own(next, '__proto__'), { token: 'masked' });
  });
});

describe('text helpers', () => {
  it("gives an Error's message, else the thrown value as text", () => {
    assert.equal(messageOf(new TypeError('bad')), 'bad');
    assert.equal(messageOf('plain'), 'plain');
    assert.equal(messageOf(42), '42');
    assert.equal(messageOf(undefined), 'undefined');
  });

  it('counts a word in the singular only for one', () => {
    assert.equal(plural(0, 'change'), '0 changes');
    assert.equal(plural(1, 'change'), '1 change');
    assert.equal(plural(2, 'change'), '2 changes');
  });

  it('turns an offset into a 1-based line and column', () => {
    const text = 'ab\ncd\n\nef';
    assert.deepEqual(lineAndColumn(text, 0), { line: 1, column: 1 });
    assert.deepEqual(lineAndColumn(text, 2), { line: 1, column: 3 }, 'the newline itself ends its line');
    assert.deepEqual(lineAndColumn(text, 3), { line: 2, column: 1 });
    assert.deepEqual(lineAndColumn(text, 7), { line: 4, column: 1 });
    assert.deepEqual(lineAndColumn(text, 9), { line: 4, column: 3 }, 'the end of the text');
    assert.deepEqual(lineAndColumn('', 0), { line: 1, column: 1 });
    assert.equal(lineColumnText(text, 4), '2:2');
    assert.deepEqual(
      lineAndColumn('\uFEFF{\n}', 1),
      { line: 1, column: 1 },
      'a byte-order mark, which editors hide, is no column',
    );
    assert.deepEqual(lineAndColumn('\uFEFF{\n}', 3), { line: 2, column: 1 });
  });
});
