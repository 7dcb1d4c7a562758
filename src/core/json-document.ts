/**
 * The text of a resource document: strict JSON parsing with readable syntax
 * problems, the canonical formatting, and locating JSON paths in the text.
 */

import { findNodeAtLocation, type Node, parseTree, ParseErrorCode, visit } from './jsonc';

export interface TextRange {
  offset: number;
  length: number;
}

export interface SyntaxProblem extends TextRange {
  message: string;
}

export interface ParsedDocument {
  /** The parsed value; undefined whenever there are syntax problems, so a broken text is never sent. */
  value: unknown;
  syntaxProblems: SyntaxProblem[];
}

/** Readable parse errors, shared by every JSON text the extension checks. */
export const SYNTAX_MESSAGES: Record<ParseErrorCode, string> = {
  [ParseErrorCode.InvalidSymbol]: 'Invalid symbol',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number format',
  [ParseErrorCode.PropertyNameExpected]: 'Expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'Expected a value',
  [ParseErrorCode.ColonExpected]: 'Expected a colon',
  [ParseErrorCode.CommaExpected]: 'Expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'Expected a closing brace',
  [ParseErrorCode.CloseBracketExpected]: 'Expected a closing bracket',
  [ParseErrorCode.EndOfFileExpected]: 'Expected the end of the text',
  [ParseErrorCode.InvalidCommentToken]: 'Comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfComment]: 'Comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfString]: 'Unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'Unterminated number',
  [ParseErrorCode.InvalidUnicode]: 'Invalid unicode escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'Invalid escape character',
  [ParseErrorCode.InvalidCharacter]: 'Invalid character in a string',
};

/** Strict JSON, as the service stores it: comments and trailing commas are problems. */
export function parseDocument(text: string): ParsedDocument {
  // JSON.parse gives exact JSON semantics (such as `__proto__` as an own key), and is the fast path for good text:
  // it is strict JSON too, so only a text it refuses needs the slower scan that says where and why.
  try {
    return { value: JSON.parse(text) as unknown, syntaxProblems: [] };
  } catch (error) {
    const syntaxProblems = syntaxProblemsOf(text);
    return {
      value: undefined,
      syntaxProblems: syntaxProblems.length > 0 ? syntaxProblems : [{ offset: 0, length: 0, message: String(error) }],
    };
  }
}

/** The documents' canonical text. */
export function formatDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The value at `path`; for a missing property or element, the closest
 * existing ancestor, so a problem still points near its cause.
 */
export function locate(text: string, path: ReadonlyArray<string | number>): TextRange | undefined {
  return pathLocator(text).value(path);
}

/** The key of the property at `path`; where there is no such key (an array element, a missing property), as `locate`. */
export function locateKey(text: string, path: ReadonlyArray<string | number>): TextRange | undefined {
  return pathLocator(text).key(path);
}

/** `locate` and `locateKey` for the many problems of one text: it is parsed once, not once a problem. */
export function pathLocator(text: string): {
  value(path: ReadonlyArray<string | number>): TextRange | undefined;
  key(path: ReadonlyArray<string | number>): TextRange | undefined;
} {
  const root = parseTree(text);
  const closestNode = (path: ReadonlyArray<string | number>): Node | undefined => {
    if (!root) {
      return undefined;
    }
    for (let depth = path.length; depth > 0; depth--) {
      const node = findNodeAtLocation(root, path.slice(0, depth));
      if (node) {
        return node;
      }
    }
    return root;
  };
  return {
    value: (path) => {
      const node = closestNode(path);
      return node && rangeOf(node);
    },
    key: (path) => {
      const node = closestNode(path);
      if (!node) {
        return undefined;
      }
      const key =
        node.parent?.type === 'property' && node.parent.children?.[1] === node ? node.parent.children[0] : undefined;
      return rangeOf(key ?? node);
    },
  };
}

function syntaxProblemsOf(text: string): SyntaxProblem[] {
  if (text.trim() === '') {
    return [{ offset: 0, length: text.length, message: 'The document is empty; expected a JSON object' }];
  }
  const problems: SyntaxProblem[] = [];
  const seen = new Set<number>();
  visit(
    text,
    {
      onError(code, offset, length) {
        // The parser often reports several codes for one spot; the first is the telling one.
        if (seen.has(offset)) {
          return;
        }
        seen.add(offset);
        problems.push(trailingComma(text, offset) ?? { offset, length, message: SYNTAX_MESSAGES[code] });
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return problems;
}

/** The parser reports a trailing comma as a missing value at the closing bracket; name it and point at the comma. */
function trailingComma(text: string, offset: number): SyntaxProblem | undefined {
  const close = text[offset];
  if (close !== '}' && close !== ']') {
    return undefined;
  }
  let before = offset - 1;
  while (before >= 0 && ' \t\r\n'.includes(text[before] ?? '')) {
    before--;
  }
  return text[before] === ',' ? { offset: before, length: 1, message: 'Trailing comma is not allowed' } : undefined;
}

function rangeOf(node: Node): TextRange {
  return { offset: node.offset, length: node.length };
}
