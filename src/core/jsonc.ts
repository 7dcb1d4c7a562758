/**
 * jsonc-parser, loaded at its first use: activation parses no JSON text, and the extension host's budget
 * (docs/performance.md) counts what activation loads. scripts/build.mjs keeps the library in dist/jsonc.js for the
 * extension; the command-line tool bundles it. Its const enums have no object at run time under esbuild, so the
 * values used here are written out (test/unit/jsonc.test.ts checks them against the library's).
 */
import type * as Jsonc from 'jsonc-parser';

export type { JSONPath, Node, ParseError } from 'jsonc-parser';

let library: typeof Jsonc | undefined;

function jsonc(): typeof Jsonc {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= require('jsonc-parser') as typeof Jsonc;
  return library;
}

export const parse: typeof Jsonc.parse = (...args) => jsonc().parse(...args);
export const parseTree: typeof Jsonc.parseTree = (...args) => jsonc().parseTree(...args);
export const findNodeAtLocation: typeof Jsonc.findNodeAtLocation = (...args) => jsonc().findNodeAtLocation(...args);
export const getLocation: typeof Jsonc.getLocation = (...args) => jsonc().getLocation(...args);
export const visit: typeof Jsonc.visit = (...args) => jsonc().visit(...args);
export const createScanner: typeof Jsonc.createScanner = (...args) => jsonc().createScanner(...args);
export const printParseErrorCode: typeof Jsonc.printParseErrorCode = (...args) => jsonc().printParseErrorCode(...args);
export const modify: typeof Jsonc.modify = (...args) => jsonc().modify(...args);
export const applyEdits: typeof Jsonc.applyEdits = (...args) => jsonc().applyEdits(...args);

/**
 * The first key that one object of `text` holds twice, if any: JSON.parse keeps the last value of such a key without
 * a word, so a reader that must not guess which value was meant asks this first. Keys are compared as decoded.
 */
export function repeatedKey(text: string): string | undefined {
  const objects: Array<Set<string>> = [];
  let repeated: string | undefined;
  visit(text, {
    onObjectBegin: () => {
      objects.push(new Set());
    },
    onObjectProperty: (key) => {
      const keys = objects.at(-1);
      if (keys?.has(key)) repeated ??= key;
      keys?.add(key);
    },
    onObjectEnd: () => {
      objects.pop();
    },
  });
  return repeated;
}

export type SyntaxKind = Jsonc.SyntaxKind;
export const SyntaxKind = {
  OpenBraceToken: 1 as Jsonc.SyntaxKind.OpenBraceToken,
  CloseBraceToken: 2 as Jsonc.SyntaxKind.CloseBraceToken,
  OpenBracketToken: 3 as Jsonc.SyntaxKind.OpenBracketToken,
  CloseBracketToken: 4 as Jsonc.SyntaxKind.CloseBracketToken,
  CommaToken: 5 as Jsonc.SyntaxKind.CommaToken,
  LineCommentTrivia: 12 as Jsonc.SyntaxKind.LineCommentTrivia,
  BlockCommentTrivia: 13 as Jsonc.SyntaxKind.BlockCommentTrivia,
  LineBreakTrivia: 14 as Jsonc.SyntaxKind.LineBreakTrivia,
  Trivia: 15 as Jsonc.SyntaxKind.Trivia,
  EOF: 17 as Jsonc.SyntaxKind.EOF,
} as const;

export type ParseErrorCode = Jsonc.ParseErrorCode;
export const ParseErrorCode = {
  InvalidSymbol: 1 as Jsonc.ParseErrorCode.InvalidSymbol,
  InvalidNumberFormat: 2 as Jsonc.ParseErrorCode.InvalidNumberFormat,
  PropertyNameExpected: 3 as Jsonc.ParseErrorCode.PropertyNameExpected,
  ValueExpected: 4 as Jsonc.ParseErrorCode.ValueExpected,
  ColonExpected: 5 as Jsonc.ParseErrorCode.ColonExpected,
  CommaExpected: 6 as Jsonc.ParseErrorCode.CommaExpected,
  CloseBraceExpected: 7 as Jsonc.ParseErrorCode.CloseBraceExpected,
  CloseBracketExpected: 8 as Jsonc.ParseErrorCode.CloseBracketExpected,
  EndOfFileExpected: 9 as Jsonc.ParseErrorCode.EndOfFileExpected,
  InvalidCommentToken: 10 as Jsonc.ParseErrorCode.InvalidCommentToken,
  UnexpectedEndOfComment: 11 as Jsonc.ParseErrorCode.UnexpectedEndOfComment,
  UnexpectedEndOfString: 12 as Jsonc.ParseErrorCode.UnexpectedEndOfString,
  UnexpectedEndOfNumber: 13 as Jsonc.ParseErrorCode.UnexpectedEndOfNumber,
  InvalidUnicode: 14 as Jsonc.ParseErrorCode.InvalidUnicode,
  InvalidEscapeCharacter: 15 as Jsonc.ParseErrorCode.InvalidEscapeCharacter,
  InvalidCharacter: 16 as Jsonc.ParseErrorCode.InvalidCharacter,
} as const;
