import * as assert from 'node:assert/strict';
import * as library from 'jsonc-parser';
import { ParseErrorCode, parseTree, SyntaxKind } from '../../src/core/jsonc';

/** The library's enums as the objects its module holds at run time (its typings declare them const). */
const held = library as unknown as Record<'SyntaxKind' | 'ParseErrorCode', Record<string, number>>;

describe('jsonc: the library loaded at first use', () => {
  it('writes out the values of the library\'s SyntaxKind', () => {
    for (const [name, value] of Object.entries(SyntaxKind)) assert.equal(value, held.SyntaxKind[name], `SyntaxKind.${name}`);
  });

  it('writes out the values of the library\'s ParseErrorCode', () => {
    for (const [name, value] of Object.entries(ParseErrorCode)) assert.equal(value, held.ParseErrorCode[name], `ParseErrorCode.${name}`);
  });

  it('parses through the library', () => {
    assert.equal(parseTree('{"a": 1}')?.children?.length, 1);
  });
});
