/**
 * Reads a `.prompttest.json` suite from JSON with comments, every problem
 * named with its place so the editor can mark it.
 */
import { createScanner, parse, parseTree, printParseErrorCode, SyntaxKind, type ParseError } from '../jsonc';
import { pathLocator, type TextRange } from '../json-document';
import { unknownKeys, type At } from './expect-problems';
import { isJsonObject, MAX_DEPTH, type Json, type JsonObject } from '../json';
import { withoutBom } from '../text';
import { parseCase } from './case-parser';
import { parseVariants } from '../variants/variant-spec';
import { SUITE_KEYS, type Suite, type SuiteProblem, type SuiteTarget, type TestCase } from './suite';

/**
 * Reads a suite; `suite` is undefined when a problem makes it unrunnable. A byte-order mark at the start is ignored,
 * and every range is an offset into `text` as given, mark included.
 */
export function parseSuite(text: string): { suite?: Suite; problems: SuiteProblem[] } {
  const body = withoutBom(text);
  const read = parseBody(body);
  const mark = text.length - body.length;
  if (mark === 0) return read;
  const shift = <T extends { range: TextRange }>(item: T): T => ({
    ...item,
    range: { ...item.range, offset: item.range.offset + mark },
  });
  const cases = read.suite?.cases.map((c) =>
    shift({
      ...c,
      ...(c.turns ? { turns: c.turns.map(shift) } : {}),
      ...(c.criteria ? { criteria: c.criteria.map(shift) } : {}),
    }),
  );
  const resource = read.suite?.resource;
  const named = resource?.range ? { resource: shift({ ...resource, range: resource.range }) } : {};
  const variants = read.suite?.variants?.map((v) =>
    shift(v.fileRange ? { ...v, fileRange: shift({ range: v.fileRange }).range } : v),
  );
  return {
    ...(read.suite && cases ? { suite: { ...read.suite, ...named, cases, ...(variants ? { variants } : {}) } } : {}),
    problems: read.problems.map(shift),
  };
}

/** Where the text opens its array or object nested more than MAX_DEPTH deep, if it does: the parser would overflow the stack there. */
export function tooDeep(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) depth--;
  }
  return undefined;
}

/** A file's `target`, or undefined after naming its problems (a judge file has one as a suite does). */
export function parseTarget(at: At, t: Json | undefined): SuiteTarget | undefined {
  if (t === undefined) return undefined;
  if (!isJsonObject(t)) {
    at(['target'], 'target must be { "connection": "<name>", "tenantId": <id> }');
    return undefined;
  }
  if (t.connection !== undefined && typeof t.connection !== 'string')
    at(['target', 'connection'], 'connection must be the name of a ConvAI connection');
  if (t.tenantId !== undefined && (typeof t.tenantId !== 'number' || !Number.isSafeInteger(t.tenantId)))
    at(['target', 'tenantId'], 'tenantId must be an integer');
  return {
    connection: typeof t.connection === 'string' ? t.connection : undefined,
    tenantId: typeof t.tenantId === 'number' ? t.tenantId : undefined,
  };
}

/** A test file's JSON object, with `at` to record its problems; else the one problem that stops its reading. */
export type TestFileObject =
  | { value: JsonObject; problems: SuiteProblem[]; at: At; located: ReturnType<typeof pathLocator> }
  | { problems: SuiteProblem[] };

/**
 * The opening of every test file's reading: not nested too deep, valid JSON (comments and trailing commas allowed),
 * an object. `noun` names the file in the messages ("a suite"); `shape` says what its object holds.
 */
export function testFileObject(text: string, noun: string, shape: string): TestFileObject {
  const stop = (message: string, offset: number, length: number): TestFileObject => ({
    problems: [{ path: [], message, range: { offset, length } }],
  });
  const deep = tooDeep(text);
  if (deep !== undefined)
    return stop(
      `arrays and objects nest more than ${MAX_DEPTH} levels deep here; ${noun} never needs that many`,
      deep,
      1,
    );
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as unknown;
  const first = errors[0];
  if (first)
    return stop(
      `not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`,
      first.offset,
      Math.max(first.length, 1),
    );
  if (!isJsonObject(value)) return stop(`${noun} is a JSON object with ${shape}`, 0, 1);
  const problems: SuiteProblem[] = [];
  const located = pathLocator(text);
  const at: At = (path, message, onKey = false) => {
    const range = (onKey ? located.key(path) : undefined) ?? located.value(path) ?? { offset: 0, length: 0 };
    problems.push({ path, message, range });
  };
  return { value, problems, at, located };
}

function parseBody(text: string): { suite?: Suite; problems: SuiteProblem[] } {
  const read = testFileObject(text, 'a suite', '"prompt" (or "integration") and "cases"');
  if (!('value' in read)) return read;
  const { value, problems, at, located } = read;
  unknownKeys(at, [], value, SUITE_KEYS, 'a suite');
  const target = parseTarget(at, value.target);

  const named = (['prompt', 'integration'] as const).filter((key) => value[key] !== undefined);
  if (named.length !== 1)
    at(
      named.length === 0 ? [] : ['integration'],
      'name the resource under test: "prompt" (test_prompt cases) or "integration" (execute_action cases), one of them',
    );
  const key = named[0] ?? 'prompt';
  const ref = value[key];
  if (named.length === 1 && typeof ref !== 'string' && typeof ref !== 'number')
    at([key], `${key} must be the ${key}'s name or id`);
  const segment = key === 'prompt' ? 'ai_prompts' : 'integrations';

  const cases: TestCase[] = [];
  if (!Array.isArray(value.cases) || value.cases.length === 0)
    at(['cases'], 'cases must be a list of at least one case');
  // Names as Unicode compares them: "é" typed as one code point or as "e" and an accent is one name to a reader.
  const names = new Map<string, string>();
  const root = parseTree(text);
  (Array.isArray(value.cases) ? value.cases : []).forEach((item: Json, index) => {
    const parsed = parseCase(at, ['cases', index], item, segment, names, root);
    if (parsed) cases.push(parsed);
  });
  const variants = parseVariants(at, value.variants, segment, {
    count: () => problems.length,
    range: (path) => located.value(path) ?? { offset: 0, length: 0 },
  });
  if (problems.length > 0) return { problems };
  const range = located.value([key]) ?? { offset: 0, length: 0 };
  return {
    suite: {
      target,
      resource: { segment, ref: ref as string | number, range },
      cases,
      ...(variants.length > 0 ? { variants } : {}),
    },
    problems,
  };
}
