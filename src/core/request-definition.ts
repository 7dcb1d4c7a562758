/**
 * Reads and checks an external API request definition file (`*.apirequest.json`,
 * service-api.md section 2.9): syntax, the schema (schemas/apirequest.schema.json)
 * and what the schema cannot say about placeholders, parameters and the API Key,
 * each problem at its exact place in the text.
 *
 * The text is JSONC: comments and trailing commas are allowed, as in VS Code's
 * own JSON-with-comments files; the definition never goes to the service as text.
 */

import {
  createScanner,
  findNodeAtLocation,
  getLocation,
  type Node,
  ParseErrorCode,
  parseTree,
  SyntaxKind,
  visit,
} from './jsonc';
import { locate, locateKey, SYNTAX_MESSAGES, type TextRange } from './json-document';
import type { RequestDefinition } from './request-builder';
import { pathText } from './validation';
import { isJsonObject } from './json';
import { findingsOf, PROPERTIES_PATH, record, type Finding, type Severity } from './request-definition-rules';

/** How a request definition file's name ends. */
export const DEFINITION_SUFFIX = '.apirequest.json';

export interface DefinitionProblem {
  offset: number;
  length: number;
  message: string;
  severity: Severity;
}

export interface ParsedDefinition {
  /** Set only when no problem is an error. */
  definition?: RequestDefinition;
  problems: DefinitionProblem[];
}

const JSONC = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

export function parseDefinition(text: string): ParsedDefinition {
  const syntax = syntaxProblems(text);
  if (syntax.length > 0) {
    return { problems: syntax };
  }
  let value: unknown;
  try {
    // JSON.parse keeps JSON semantics (a `__proto__` key stays a key) once the text is known good.
    value = JSON.parse(plainJson(text)) as unknown;
  } catch (error) {
    return { problems: [{ offset: 0, length: 0, message: String(error), severity: 'error' }] };
  }
  const problems = findingsOf(value)
    .map((finding) => ({ ...place(text, finding), message: finding.message, severity: finding.severity }))
    .sort((a, b) => a.offset - b.offset);
  const valid = !problems.some((p) => p.severity === 'error');
  return valid ? { definition: value as RequestDefinition, problems } : { problems };
}

/** The errors of a definition given as a value, each message naming its field; [] when it can be used. Warnings are left out. */
export function checkDefinitionObject(value: unknown): string[] {
  return findingsOf(value)
    .filter((f) => f.severity === 'error')
    .map((f) => (f.bare ? `${pathText(f.path)}: ${f.message}` : f.message));
}

/** For completion: whether `offset` follows `{{` and a partial name inside the URL or a header value. */
export function placeholderAt(text: string, offset: number): { inPlaceholder: boolean; prefix: string } {
  const outside = { inPlaceholder: false, prefix: '' };
  const location = getLocation(text, offset);
  const [field] = location.path;
  const depth = field === 'url' ? 1 : field === 'headers' ? 2 : 0;
  const node = location.previousNode;
  if (
    depth === 0 ||
    location.path.length !== depth ||
    location.isAtPropertyKey ||
    node?.type !== 'string' ||
    offset <= node.offset
  ) {
    return outside;
  }
  const before = text.slice(node.offset + 1, offset);
  // An unescaped quote means the offset is past the end of the string.
  if (/(^|[^\\])(\\\\)*"/.test(before)) {
    return outside;
  }
  const open = /\{\{\s*([\w.-]*)$/.exec(before);
  return open ? { inPlaceholder: true, prefix: open[1] as string } : outside;
}

/** The parameter names of a definition, or of the text of one being typed (however broken), for completion. */
export function parameterNames(definition: unknown): string[] {
  if (typeof definition === 'string') {
    const root = parseTree(definition, [], JSONC);
    const properties = root && findNodeAtLocation(root, PROPERTIES_PATH);
    return properties?.type !== 'object'
      ? []
      : (properties.children ?? []).flatMap((property) => {
          const key: unknown = property.children?.[0]?.value;
          return typeof key === 'string' ? [key] : [];
        });
  }
  const properties = record(record(record(definition).function_definition).parameters).properties;
  return isJsonObject(properties) ? Object.keys(properties) : [];
}

// ---- syntax

// Comments are allowed here, so an unterminated one is the only comment problem.
const DEFINITION_SYNTAX_MESSAGES: Partial<Record<ParseErrorCode, string>> = {
  ...SYNTAX_MESSAGES,
  [ParseErrorCode.UnexpectedEndOfComment]: 'Unterminated comment',
};

function syntaxProblems(text: string): DefinitionProblem[] {
  if (text.trim() === '') {
    return [
      { offset: 0, length: text.length, message: 'The file is empty; expected a JSON object', severity: 'error' },
    ];
  }
  const problems: DefinitionProblem[] = [];
  visit(
    text,
    {
      onError(code, offset, length) {
        // The parser often reports several codes for one spot; the first is the telling one.
        if (!problems.some((p) => p.offset === offset)) {
          problems.push({
            offset,
            length,
            message: DEFINITION_SYNTAX_MESSAGES[code] ?? 'Invalid JSON',
            severity: 'error',
          });
        }
      },
    },
    JSONC,
  );
  return problems;
}

/** The text with comments and trailing commas blanked out, which JSON.parse then reads. */
function plainJson(text: string): string {
  const chars = text.split('');
  const blank = (offset: number, length: number): void => {
    for (let i = offset; i < offset + length; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  };
  const scanner = createScanner(text, false);
  let comma = -1;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) {
      blank(scanner.getTokenOffset(), scanner.getTokenLength());
    } else if (kind === SyntaxKind.CommaToken) {
      comma = scanner.getTokenOffset();
    } else if (kind !== SyntaxKind.Trivia && kind !== SyntaxKind.LineBreakTrivia) {
      if (comma >= 0 && (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken)) blank(comma, 1);
      comma = -1;
    }
  }
  return chars.join('');
}

// ---- placing findings in the text

function place(text: string, finding: Finding): TextRange {
  const { path, spot } = finding;
  const fallback = { offset: 0, length: 1 };
  if (spot === 'key') {
    return locateKey(text, path) ?? fallback;
  }
  if (spot === 'value') {
    return locate(text, path) ?? fallback;
  }
  if (spot === 'owner') {
    // A missing property: the key of the object that should hold it, or the `{` of the whole document.
    const owner = path.slice(0, -1);
    const root = parseTree(text, [], JSONC);
    return owner.length === 0 ? { offset: root?.offset ?? 0, length: 1 } : (locateKey(text, owner) ?? fallback);
  }
  const root = parseTree(text, [], JSONC);
  const node: Node | undefined = root && findNodeAtLocation(root, path);
  if (node?.type !== 'string') {
    return fallback;
  }
  const raw = rawIndexes(text.slice(node.offset + 1, node.offset + node.length - 1));
  const start = raw[spot.start] ?? 0;
  return { offset: node.offset + 1 + start, length: (raw[spot.end] ?? start) - start };
}

/** For each UTF-16 index of a string literal's decoded value, the index in its raw text (escapes are longer), plus the end. */
function rawIndexes(raw: string): number[] {
  const indexes: number[] = [];
  for (let i = 0; i < raw.length; i += raw[i] === '\\' ? (raw[i + 1] === 'u' ? 6 : 2) : 1) {
    indexes.push(i);
  }
  indexes.push(raw.length);
  return indexes;
}

// ---- the checks, on the value
