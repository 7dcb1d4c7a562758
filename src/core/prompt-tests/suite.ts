/**
 * A `.prompttest.json` suite (contract: "Prompt test suites"): its target, its
 * cases and what each expects, read from JSON with comments, every problem
 * named with its place so the editor can mark it.
 */
import { createScanner, findNodeAtLocation, parse, parseTree, printParseErrorCode, SyntaxKind, type Node as JsonNode, type ParseError } from '../jsonc';
import { withSuffix } from '../file-names';
import { pathLocator, type TextRange } from '../json-document';
import { checkExpect, isPromptRef, OUTPUTS, type At } from './expect-problems';
import { isJsonObject, MAX_DEPTH, type Json, type JsonObject } from '../json';
import { withoutBom } from '../text';
import { readSimulatedCase, type Criterion, type Simulation } from './simulated-case';

export const SUITE_SUFFIX = '.prompttest.json';

/** A chosen path as a suite's: ending in `.prompttest.json` once, whatever a save dialog added or left out. */
export function suitePath(chosen: string): string {
  return withSuffix(chosen, SUITE_SUFFIX);
}

export interface SuiteTarget {
  connection?: string;
  tenantId?: number;
}

/** One turn of a conversation case (contract: "Conversations"). */
export interface Turn {
  prompt_text: string;
  prompt_params?: JsonObject;
  /** The output fields and their assertions, as a case's `expect`, without `prompt`. */
  expect: JsonObject;
  /** The prompt that must have answered the turn, by name or id. */
  prompt?: string | number;
  /** Where the turn is in the file. */
  range: TextRange;
}

export interface TestCase {
  name: string;
  /** test_prompt inputs. */
  prompt_text?: string;
  prompt_params?: JsonObject;
  /** execute_action inputs. */
  action?: string;
  params?: JsonObject;
  /** A conversation's turns, instead of `prompt_text`; the case's prompt_params go with turn 1. */
  turns?: Turn[];
  /** A simulated call, instead of `prompt_text` or `turns`: another prompt plays the caller. */
  simulate?: Simulation;
  /** What a simulated call is judged against. */
  criteria?: Criterion[];
  /** How many times each judged criterion is judged per call (odd; the majority decides). */
  judgeRepeat?: number;
  /** Empty for a conversation or a simulated call: its turns or criteria hold what it expects. */
  expect: JsonObject;
  maxMs?: number;
  repeat: number;
  minPassRate: number;
  /** Where the case is in the file. */
  range: TextRange;
}

/** How a suite names a resource (its `prompt`, a turn's `expect.prompt`): a number is an id; a text is a name, or an id written as text. */
export function refersTo(ref: string | number, resource: { id?: number; name?: string }): boolean {
  return typeof ref === 'number' ? resource.id === ref : resource.name === ref || (resource.id !== undefined && String(resource.id) === ref);
}

export interface Suite {
  target?: SuiteTarget;
  /** The prompt (test_prompt cases) or the integration (execute_action cases), by name or id. */
  resource: { segment: 'ai_prompts' | 'integrations'; ref: string | number };
  cases: TestCase[];
}

export interface SuiteProblem {
  path: Array<string | number>;
  message: string;
  range: TextRange;
}

export { OUTPUTS };
export const CASE_KEYS: readonly string[] = ['name', 'prompt_text', 'prompt_params', 'turns', 'simulate', 'criteria', 'judgeRepeat', 'action', 'params', 'expect', 'maxMs', 'repeat', 'minPassRate'];
export const TURN_KEYS: readonly string[] = ['prompt_text', 'prompt_params', 'expect'];

function rangeOf(node: JsonNode | undefined): TextRange {
  return node ? { offset: node.offset, length: node.length } : { offset: 0, length: 0 };
}

/** A turn's `expect` may name the prompt that must answer it. */
const TURN_EXPECT = { prompt: (value: Json) => (isPromptRef(value) ? undefined : 'prompt is the name or id of the prompt that must answer this turn') };

/** A conversation's turns, or undefined after naming their problems. */
function parseTurns(at: At, path: Array<string | number>, value: Json | undefined, root: JsonNode | undefined): Turn[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    at(path, 'turns must be a list of at least one turn, each { "prompt_text", "prompt_params"?, "expect"? }');
    return undefined;
  }
  const turns: Turn[] = [];
  value.forEach((item: Json, index) => {
    const turnPath = [...path, index];
    if (!isJsonObject(item)) return at(turnPath, 'a turn is an object with "prompt_text" and, if it checks the answer, "expect"');
    for (const extra of Object.keys(item).filter((k) => !TURN_KEYS.includes(k))) at([...turnPath, extra], `"${extra}" is no field of a turn; use ${TURN_KEYS.join(', ')}`, true);
    if (typeof item.prompt_text !== 'string') at([...turnPath, 'prompt_text'], 'every turn needs "prompt_text", the text sent in that turn');
    if (item.prompt_params !== undefined && !isJsonObject(item.prompt_params)) at([...turnPath, 'prompt_params'], 'prompt_params must be an object');
    const expect = item.expect ?? {};
    if (!isJsonObject(expect)) at([...turnPath, 'expect'], '"expect" maps output fields (response, altered_prompt, next_prompt_id, next_prompt_params) and "prompt" to a value or to assertions');
    else checkExpect(at, [...turnPath, 'expect'], expect, 'ai_prompts', TURN_EXPECT);
    if (typeof item.prompt_text !== 'string' || !isJsonObject(expect)) return;
    const { prompt, ...outputs } = expect;
    const node = root && findNodeAtLocation(root, turnPath);
    turns.push({
      prompt_text: item.prompt_text,
      ...(isJsonObject(item.prompt_params) ? { prompt_params: item.prompt_params } : {}),
      expect: outputs,
      ...(typeof prompt === 'string' || typeof prompt === 'number' ? { prompt } : {}),
      range: rangeOf(node),
    });
  });
  return turns.length === value.length ? turns : undefined;
}

/**
 * Reads a suite; `suite` is undefined when a problem makes it unrunnable. A byte-order mark at the start is ignored,
 * and every range is an offset into `text` as given, mark included.
 */
export function parseSuite(text: string): { suite?: Suite; problems: SuiteProblem[] } {
  const body = withoutBom(text);
  const read = parseBody(body);
  const mark = text.length - body.length;
  if (mark === 0) return read;
  const shift = <T extends { range: TextRange }>(item: T): T => ({ ...item, range: { ...item.range, offset: item.range.offset + mark } });
  const cases = read.suite?.cases.map((c) => shift({ ...c, ...(c.turns ? { turns: c.turns.map(shift) } : {}), ...(c.criteria ? { criteria: c.criteria.map(shift) } : {}) }));
  return { ...(read.suite && cases ? { suite: { ...read.suite, cases } } : {}), problems: read.problems.map(shift) };
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
  if (t.connection !== undefined && typeof t.connection !== 'string') at(['target', 'connection'], 'connection must be the name of a ConvAI connection');
  if (t.tenantId !== undefined && (typeof t.tenantId !== 'number' || !Number.isSafeInteger(t.tenantId))) at(['target', 'tenantId'], 'tenantId must be an integer');
  return { connection: typeof t.connection === 'string' ? t.connection : undefined, tenantId: typeof t.tenantId === 'number' ? t.tenantId : undefined };
}

function parseBody(text: string): { suite?: Suite; problems: SuiteProblem[] } {
  const deep = tooDeep(text);
  if (deep !== undefined) return { problems: [{ path: [], message: `arrays and objects nest more than ${MAX_DEPTH} levels deep here; a suite never needs that many`, range: { offset: deep, length: 1 } }] };
  const problems: SuiteProblem[] = [];
  const located = pathLocator(text);
  const at: At = (path, message, onKey = false) => {
    const range = (onKey ? located.key(path) : undefined) ?? located.value(path) ?? { offset: 0, length: 0 };
    problems.push({ path, message, range });
  };
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    return { problems: [{ path: [], message: `not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`, range: { offset: first.offset, length: Math.max(first.length, 1) } }] };
  }
  if (!isJsonObject(value)) return { problems: [{ path: [], message: 'a suite is a JSON object with "prompt" (or "integration") and "cases"', range: { offset: 0, length: 1 } }] };

  const target = parseTarget(at, value.target);

  const named = (['prompt', 'integration'] as const).filter((key) => value[key] !== undefined);
  if (named.length !== 1) at(named.length === 0 ? [] : ['integration'], 'name the resource under test: "prompt" (test_prompt cases) or "integration" (execute_action cases), one of them');
  const key = named[0] ?? 'prompt';
  const ref = value[key];
  if (named.length === 1 && typeof ref !== 'string' && typeof ref !== 'number') at([key], `${key} must be the ${key}'s name or id`);
  const segment = key === 'prompt' ? 'ai_prompts' : 'integrations';

  const cases: TestCase[] = [];
  if (!Array.isArray(value.cases) || value.cases.length === 0) at(['cases'], 'cases must be a list of at least one case');
  // Names as Unicode compares them: "é" typed as one code point or as "e" and an accent is one name to a reader.
  const names = new Map<string, string>();
  const root = parseTree(text);
  (Array.isArray(value.cases) ? value.cases : []).forEach((item: Json, index) => {
    const path = ['cases', index];
    if (!isJsonObject(item)) return at(path, 'a case is an object with "name", its inputs and "expect"');
    const before = problems.length;
    for (const extra of Object.keys(item).filter((k) => !CASE_KEYS.includes(k))) at([...path, extra], `"${extra}" is no field of a case; use ${CASE_KEYS.join(', ')}`, true);
    if (typeof item.name !== 'string' || item.name.trim() === '') at([...path, 'name'], 'every case needs a "name"');
    else if (names.has(item.name.normalize('NFC'))) {
      const other = names.get(item.name.normalize('NFC')) as string;
      at([...path, 'name'], `another case is named "${other}"${other === item.name ? '' : ', the same name in other code points (Unicode NFC)'}; names must be unique`);
    } else names.set(item.name.normalize('NFC'), item.name);
    let turns: Turn[] | undefined;
    let simulated: ReturnType<typeof readSimulatedCase>;
    const isSimulated = ['simulate', 'criteria', 'judgeRepeat'].some((key) => item[key] !== undefined);
    if (isSimulated) {
      if (segment === 'integrations') at([...path, 'simulate'], 'only a prompt suite\'s case can be a simulated call; give an integration case "action" and "params"', true);
      else simulated = readSimulatedCase(at, path, item, (where) => rangeOf(root && findNodeAtLocation(root, where)));
    } else if (item.turns !== undefined) {
      if (segment === 'integrations') at([...path, 'turns'], 'only a prompt suite\'s case can be a conversation; give an integration case "action" and "params" instead of "turns"', true);
      else if (item.prompt_text !== undefined) at([...path, 'prompt_text'], 'a conversation sends its turns\' prompt_text: leave out the case\'s "prompt_text", or "turns"', true);
      else if (item.expect !== undefined) at([...path, 'expect'], 'a conversation\'s expectations go in its turns: move "expect" into the turn it checks', true);
      else turns = parseTurns(at, [...path, 'turns'], item.turns, root);
    } else if (segment === 'ai_prompts' && typeof item.prompt_text !== 'string') at([...path, 'prompt_text'], 'a prompt case needs "prompt_text", the text to test with, "turns" for a conversation, or "simulate" and "criteria" for a simulated call');
    if (segment === 'integrations' && (typeof item.action !== 'string' || item.action === '')) at([...path, 'action'], 'an integration case needs "action", the action to execute');
    for (const objectField of ['prompt_params', 'params']) if (item[objectField] !== undefined && !isJsonObject(item[objectField])) at([...path, objectField], `${objectField} must be an object`);
    if (item.turns === undefined && !isSimulated) {
      if (!isJsonObject(item.expect)) at([...path, 'expect'], `"expect" maps output fields (${OUTPUTS[segment].join(', ')}) to a value or to assertions`);
      else checkExpect(at, [...path, 'expect'], item.expect, segment);
    }
    const repeat = item.repeat ?? 1;
    if (typeof repeat !== 'number' || !Number.isSafeInteger(repeat) || repeat < 1 || repeat > 100) at([...path, 'repeat'], 'repeat is how many times to run the case: a whole number from 1 to 100');
    const minPassRate = item.minPassRate ?? 1;
    if (typeof minPassRate !== 'number' || minPassRate < 0 || minPassRate > 1) at([...path, 'minPassRate'], 'minPassRate is the share of runs that must pass: a number from 0 to 1');
    if (item.maxMs !== undefined && (typeof item.maxMs !== 'number' || item.maxMs <= 0)) at([...path, 'maxMs'], 'maxMs is the longest a run may take, in milliseconds');
    if (problems.length > before) return;
    const node = root && findNodeAtLocation(root, path);
    cases.push({
      name: item.name as string,
      ...(typeof item.prompt_text === 'string' ? { prompt_text: item.prompt_text } : {}),
      ...(isJsonObject(item.prompt_params) ? { prompt_params: item.prompt_params } : {}),
      ...(typeof item.action === 'string' ? { action: item.action } : {}),
      ...(isJsonObject(item.params) ? { params: item.params } : {}),
      ...(turns ? { turns } : {}),
      ...(simulated ?? {}),
      expect: isJsonObject(item.expect) ? item.expect : {},
      ...(typeof item.maxMs === 'number' ? { maxMs: item.maxMs } : {}),
      repeat: repeat as number,
      minPassRate: minPassRate as number,
      range: rangeOf(node),
    });
  });
  if (problems.length > 0) return { problems };
  return { suite: { target, resource: { segment, ref: ref as string | number }, cases }, problems };
}
