import * as assert from 'node:assert/strict';
import * as library from 'jsonc-parser';
import { ParseErrorCode, parseTree, repeatedKey, SyntaxKind } from '../../src/core/jsonc';

/** The library's enums as the objects its module holds at run time (its typings declare them const). */
const held = library as unknown as Record<'SyntaxKind' | 'ParseErrorCode', Record<string, number>>;

describe('jsonc: the library loaded at first use', () => {
  it("writes out the values of the library's SyntaxKind", () => {
    for (const [name, value] of Object.entries(SyntaxKind))
      assert.equal(value, held.SyntaxKind[name], `SyntaxKind.${name}`);
  });

  it("writes out the values of the library's ParseErrorCode", () => {
    for (const [name, value] of Object.entries(ParseErrorCode))
      assert.equal(value, held.ParseErrorCode[name], `ParseErrorCode.${name}`);
  });

  it('parses through the library', () => {
    assert.equal(parseTree('{"a": 1}')?.children?.length, 1);
  });

  it('finds a key one object holds twice, as decoded, in any object of the text', () => {
    assert.equal(repeatedKey('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}'), undefined);
    assert.equal(repeatedKey('{"a": 1, "b": 2, "a": 3}'), 'a');
    assert.equal(repeatedKey('{"b": [{"x": 1, "y": {"z": 0}, "x": 2}]}'), 'x');
    assert.equal(repeatedKey('{"verdict": "fail", "verdic\\u0074": "pass"}'), 'verdict');
  });
});
