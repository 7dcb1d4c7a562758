/**
 * How a suite's cases are read: each case's inputs, its conversation turns or
 * simulated call, and what it expects, every problem named at its place.
 */
import { findNodeAtLocation, type Node as JsonNode } from '../jsonc';
import type { TextRange } from '../json-document';
import { checkExpect, isPromptRef, OUTPUTS, unknownKeys, type At } from './expect-problems';
import { isJsonObject, type Json } from '../json';
import { readSimulatedCase } from './simulated-case';
import { CASE_KEYS, TURN_KEYS, type Suite, type TestCase, type Turn } from './suite';

function rangeOf(node: JsonNode | undefined): TextRange {
  return node ? { offset: node.offset, length: node.length } : { offset: 0, length: 0 };
}

/** A turn's `expect` may name the prompt that must answer it. */
const TURN_EXPECT = {
  prompt: (value: Json) =>
    isPromptRef(value) ? undefined : 'prompt is the name or id of the prompt that must answer this turn',
};

/** A conversation's turns, or undefined after naming their problems. */
function parseTurns(
  at: At,
  path: Array<string | number>,
  value: Json | undefined,
  root: JsonNode | undefined,
): Turn[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    at(path, 'turns must be a list of at least one turn, each { "prompt_text", "prompt_params"?, "expect"? }');
    return undefined;
  }
  const turns: Turn[] = [];
  value.forEach((item: Json, index) => {
    const turnPath = [...path, index];
    if (!isJsonObject(item))
      return at(turnPath, 'a turn is an object with "prompt_text" and, if it checks the answer, "expect"');
    unknownKeys(at, turnPath, item, TURN_KEYS, 'a turn');
    if (typeof item.prompt_text !== 'string')
      at([...turnPath, 'prompt_text'], 'every turn needs "prompt_text", the text sent in that turn');
    if (item.prompt_params !== undefined && !isJsonObject(item.prompt_params))
      at([...turnPath, 'prompt_params'], 'prompt_params must be an object');
    const expect = item.expect ?? {};
    if (!isJsonObject(expect))
      at(
        [...turnPath, 'expect'],
        '"expect" maps output fields (response, altered_prompt, next_prompt_id, next_prompt_params) and "prompt" to a value or to assertions',
      );
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
 * One case of a suite, or undefined after naming its problems; `names` holds the names of the cases before it, by
 * their Unicode NFC form.
 */
export function parseCase(
  report: At,
  path: Array<string | number>,
  item: Json,
  segment: Suite['resource']['segment'],
  names: Map<string, string>,
  root: JsonNode | undefined,
): TestCase | undefined {
  // Any problem, its own or one its turns, simulation or expectations name, leaves the case out.
  let found = false;
  const at: At = (where, message, onKey) => {
    found = true;
    report(where, message, onKey);
  };
  if (!isJsonObject(item)) {
    at(path, 'a case is an object with "name", its inputs and "expect"');
    return undefined;
  }
  unknownKeys(at, path, item, CASE_KEYS, 'a case');
  if (typeof item.name !== 'string' || item.name.trim() === '') at([...path, 'name'], 'every case needs a "name"');
  else if (names.has(item.name.normalize('NFC'))) {
    const other = names.get(item.name.normalize('NFC')) as string;
    at(
      [...path, 'name'],
      `another case is named "${other}"${other === item.name ? '' : ', the same name in other code points (Unicode NFC)'}; names must be unique`,
    );
  } else names.set(item.name.normalize('NFC'), item.name);
  let turns: Turn[] | undefined;
  let simulated: ReturnType<typeof readSimulatedCase>;
  const isSimulated = ['simulate', 'criteria', 'judgeRepeat'].some((key) => item[key] !== undefined);
  if (isSimulated) {
    if (segment === 'integrations')
      at(
        [...path, 'simulate'],
        'only a prompt suite\'s case can be a simulated call; give an integration case "action" and "params"',
        true,
      );
    else simulated = readSimulatedCase(at, path, item, (where) => rangeOf(root && findNodeAtLocation(root, where)));
  } else if (item.turns !== undefined) {
    if (segment === 'integrations')
      at(
        [...path, 'turns'],
        'only a prompt suite\'s case can be a conversation; give an integration case "action" and "params" instead of "turns"',
        true,
      );
    else if (item.prompt_text !== undefined)
      at(
        [...path, 'prompt_text'],
        'a conversation sends its turns\' prompt_text: leave out the case\'s "prompt_text", or "turns"',
        true,
      );
    else if (item.expect !== undefined)
      at(
        [...path, 'expect'],
        'a conversation\'s expectations go in its turns: move "expect" into the turn it checks',
        true,
      );
    else turns = parseTurns(at, [...path, 'turns'], item.turns, root);
  } else if (segment === 'ai_prompts' && typeof item.prompt_text !== 'string')
    at(
      [...path, 'prompt_text'],
      'a prompt case needs "prompt_text", the text to test with, "turns" for a conversation, or "simulate" and "criteria" for a simulated call',
    );
  if (segment === 'integrations' && (typeof item.action !== 'string' || item.action === ''))
    at([...path, 'action'], 'an integration case needs "action", the action to execute');
  for (const objectField of ['prompt_params', 'params'])
    if (item[objectField] !== undefined && !isJsonObject(item[objectField]))
      at([...path, objectField], `${objectField} must be an object`);
  if (item.turns === undefined && !isSimulated) {
    if (!isJsonObject(item.expect))
      at(
        [...path, 'expect'],
        `"expect" maps output fields (${OUTPUTS[segment].join(', ')}) to a value or to assertions`,
      );
    else checkExpect(at, [...path, 'expect'], item.expect, segment);
  }
  const repeat = item.repeat ?? 1;
  if (typeof repeat !== 'number' || !Number.isSafeInteger(repeat) || repeat < 1 || repeat > 100)
    at([...path, 'repeat'], 'repeat is how many times to run the case: a whole number from 1 to 100');
  const minPassRate = item.minPassRate ?? 1;
  if (typeof minPassRate !== 'number' || minPassRate < 0 || minPassRate > 1)
    at([...path, 'minPassRate'], 'minPassRate is the share of runs that must pass: a number from 0 to 1');
  if (item.maxMs !== undefined && (typeof item.maxMs !== 'number' || item.maxMs <= 0))
    at([...path, 'maxMs'], 'maxMs is the longest a run may take, in milliseconds');
  if (item.maxP95Ms !== undefined && (typeof item.maxP95Ms !== 'number' || item.maxP95Ms <= 0))
    at(
      [...path, 'maxP95Ms'],
      "maxP95Ms is the longest the 95th percentile of the case's runs may take, in milliseconds",
    );
  if (found) return undefined;
  const node = root && findNodeAtLocation(root, path);
  return {
    name: item.name as string,
    ...(typeof item.prompt_text === 'string' ? { prompt_text: item.prompt_text } : {}),
    ...(isJsonObject(item.prompt_params) ? { prompt_params: item.prompt_params } : {}),
    ...(typeof item.action === 'string' ? { action: item.action } : {}),
    ...(isJsonObject(item.params) ? { params: item.params } : {}),
    ...(turns ? { turns } : {}),
    ...(simulated ?? {}),
    expect: isJsonObject(item.expect) ? item.expect : {},
    ...(typeof item.maxMs === 'number' ? { maxMs: item.maxMs } : {}),
    ...(typeof item.maxP95Ms === 'number' ? { maxP95Ms: item.maxP95Ms } : {}),
    repeat: repeat as number,
    minPassRate: minPassRate as number,
    range: rangeOf(node),
  };
}
