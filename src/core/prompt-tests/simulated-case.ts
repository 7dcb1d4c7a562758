/**
 * A simulated call's case as a suite holds it (contract: "Simulated
 * callers"): another prompt of the tenant plays the caller, and the call is
 * judged against criteria. Read here, every problem placed, so a typo is
 * found before anything is sent.
 */
import { isJsonObject, type Json, type JsonObject } from '../json';
import type { TextRange } from '../json-document';
import { LIMITS } from '../limits';
import { checkExpect, isPromptRef, type At, type ExtraKeys } from './expect-problems';

export interface Simulation {
  /** The prompt that plays the caller, by name or id. */
  caller: string | number;
  persona: string;
  /** The caller's first line. */
  opening: string;
  /** Assistant answers at most (default 8, at most 50). */
  maxTurns: number;
  /** An assistant answer that ends the call: from this prompt, and/or with these outputs. */
  stopWhen?: { prompt?: string | number; expect: JsonObject };
  /** More parameters for the caller prompt, under persona and transcript. */
  params?: JsonObject;
}

/** A criterion a judge prompt decides against its rubric. */
export interface JudgedCriterion {
  name: string;
  judge: string | number;
  rubric: string;
  range: TextRange;
}

/** A criterion checked on the call itself. */
export interface CheckedCriterion {
  name: string;
  expect: {
    /** Some assistant answer came from this prompt. */
    prompt?: string | number;
    /** The call ended by stopWhen or by the caller within this many assistant answers. */
    maxTurns?: number;
    /** What every assistant answer must satisfy. */
    outputs: JsonObject;
  };
  range: TextRange;
}

export type Criterion = JudgedCriterion | CheckedCriterion;

export function isJudged(criterion: Criterion): criterion is JudgedCriterion {
  return 'judge' in criterion;
}

export const SIMULATE_KEYS: readonly string[] = ['caller', 'persona', 'opening', 'maxTurns', 'stopWhen', 'params'];
export const CRITERION_KEYS: readonly string[] = ['name', 'judge', 'rubric', 'expect'];
export const DEFAULT_MAX_TURNS = LIMITS.callTurns.value;
const MOST_TURNS = LIMITS.mostCallTurns.value;
const MOST_JUDGEMENTS = LIMITS.mostJudgements.value;

const promptProblem =
  (what: string) =>
  (value: Json): string | undefined =>
    isPromptRef(value) ? undefined : `prompt is the name or id of the prompt ${what}`;
const STOP_KEYS: ExtraKeys = { prompt: promptProblem('whose answer ends the call') };
const CRITERION_EXPECT: ExtraKeys = {
  prompt: promptProblem('that must have answered at least once'),
  maxTurns: (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 1
      ? undefined
      : 'maxTurns is the most assistant answers the call may take to end: a whole number from 1',
};

function wholeNumber(value: Json | undefined, low: number, high: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= low && value <= high;
}

function readSimulation(at: At, path: Array<string | number>, value: Json): Simulation | undefined {
  if (!isJsonObject(value)) {
    at(path, 'simulate is { "caller", "persona", "opening", "maxTurns"?, "stopWhen"?, "params"? }');
    return undefined;
  }
  for (const extra of Object.keys(value).filter((k) => !SIMULATE_KEYS.includes(k)))
    at([...path, extra], `"${extra}" is no field of simulate; use ${SIMULATE_KEYS.join(', ')}`, true);
  const { caller, persona = '', opening, maxTurns = DEFAULT_MAX_TURNS, stopWhen, params } = value;
  if (!isPromptRef(caller))
    at([...path, 'caller'], 'caller is the name or id of the prompt of the tenant that plays the caller');
  if (typeof persona !== 'string') at([...path, 'persona'], 'persona is a text: who the caller is and what they want');
  if (typeof opening !== 'string' || opening.trim() === '')
    at([...path, 'opening'], "opening is the caller's first line: a text");
  if (!wholeNumber(maxTurns, 1, MOST_TURNS))
    at(
      [...path, 'maxTurns'],
      `maxTurns is the most assistant answers a call takes: a whole number from 1 to ${MOST_TURNS}`,
    );
  if (params !== undefined && !isJsonObject(params)) at([...path, 'params'], 'params must be an object');
  let stop: Simulation['stopWhen'];
  if (stopWhen !== undefined) {
    if (!isJsonObject(stopWhen) || Object.keys(stopWhen).length === 0)
      at(
        [...path, 'stopWhen'],
        'stopWhen is { "prompt"?, and output fields with assertions }: an answer that ends the call',
      );
    else {
      checkExpect(at, [...path, 'stopWhen'], stopWhen, 'ai_prompts', STOP_KEYS);
      const { prompt, ...outputs } = stopWhen;
      stop = { ...(isPromptRef(prompt) ? { prompt } : {}), expect: outputs };
    }
  }
  if (
    !isPromptRef(caller) ||
    typeof persona !== 'string' ||
    typeof opening !== 'string' ||
    !wholeNumber(maxTurns, 1, MOST_TURNS)
  )
    return undefined;
  return {
    caller,
    persona,
    opening,
    maxTurns,
    ...(stop ? { stopWhen: stop } : {}),
    ...(isJsonObject(params) ? { params } : {}),
  };
}

function readCriterion(at: At, path: Array<string | number>, value: Json, range: TextRange): Criterion | undefined {
  if (!isJsonObject(value)) {
    at(path, 'a criterion is { "name", "judge", "rubric" } (judged) or { "name", "expect" } (checked)');
    return undefined;
  }
  for (const extra of Object.keys(value).filter((k) => !CRITERION_KEYS.includes(k)))
    at([...path, extra], `"${extra}" is no field of a criterion; use ${CRITERION_KEYS.join(', ')}`, true);
  const { name, judge, rubric, expect } = value;
  if (typeof name !== 'string' || name.trim() === '') at([...path, 'name'], 'every criterion needs a "name"');
  const judged = judge !== undefined || rubric !== undefined;
  if (judged && expect !== undefined)
    at(
      [...path, 'expect'],
      'a criterion is judged ("judge" and "rubric") or checked ("expect"), not both: make it two criteria',
      true,
    );
  if (judged) {
    if (!isPromptRef(judge)) at([...path, 'judge'], 'judge is the name or id of the judge prompt of the tenant');
    if (typeof rubric !== 'string' || rubric.trim() === '')
      at([...path, 'rubric'], 'rubric is what the judge decides: a text');
    if (typeof name !== 'string' || !isPromptRef(judge) || typeof rubric !== 'string') return undefined;
    return { name, judge, rubric, range };
  }
  if (!isJsonObject(expect) || Object.keys(expect).length === 0) {
    at(
      [...path, 'expect'],
      'give a criterion "judge" and "rubric", or "expect" with "prompt", "maxTurns" or output fields with assertions',
    );
    return undefined;
  }
  let wrong = 0;
  checkExpect(
    (...problem) => {
      wrong++;
      at(...problem);
    },
    [...path, 'expect'],
    expect,
    'ai_prompts',
    CRITERION_EXPECT,
  );
  const { prompt, maxTurns, ...outputs } = expect;
  if (typeof name !== 'string' || wrong > 0) return undefined;
  return {
    name,
    expect: {
      ...(isPromptRef(prompt) ? { prompt } : {}),
      ...(typeof maxTurns === 'number' ? { maxTurns } : {}),
      outputs,
    },
    range,
  };
}

/**
 * A simulated case's `simulate`, `criteria` and `judgeRepeat`, or undefined after naming their problems. `rangeAt`
 * gives a criterion's place in the file.
 */
export function readSimulatedCase(
  at: At,
  path: Array<string | number>,
  item: JsonObject,
  rangeAt: (path: Array<string | number>) => TextRange,
): { simulate: Simulation; criteria: Criterion[]; judgeRepeat: number } | undefined {
  for (const other of ['prompt_text', 'turns', 'expect']) {
    if (item[other] !== undefined)
      at(
        [...path, other],
        `a simulated call's caller speaks and its criteria check the call: leave out "${other}"`,
        true,
      );
  }
  const simulate =
    item.simulate === undefined
      ? (at([...path, 'criteria'], 'criteria judge a simulated call: give the case "simulate" too', true), undefined)
      : readSimulation(at, [...path, 'simulate'], item.simulate);
  const criteria: Criterion[] = [];
  const names = new Set<string>();
  if (!Array.isArray(item.criteria) || item.criteria.length === 0)
    at([...path, 'criteria'], 'criteria must be a list of at least one criterion the call is judged against');
  else {
    item.criteria.forEach((value: Json, index) => {
      const criterionPath = [...path, 'criteria', index];
      const criterion = readCriterion(at, criterionPath, value, rangeAt(criterionPath));
      if (!criterion) return;
      const key = criterion.name.normalize('NFC');
      if (names.has(key))
        at(
          [...criterionPath, 'name'],
          `another criterion is named "${criterion.name}"; names must be unique within the case`,
        );
      names.add(key);
      criteria.push(criterion);
    });
  }
  const judgeRepeat = item.judgeRepeat ?? 1;
  if (!wholeNumber(judgeRepeat, 1, MOST_JUDGEMENTS) || judgeRepeat % 2 === 0)
    at(
      [...path, 'judgeRepeat'],
      `judgeRepeat is how many times each judged criterion is judged, the majority deciding: an odd number from 1 to ${MOST_JUDGEMENTS}`,
    );
  if (
    !simulate ||
    !Array.isArray(item.criteria) ||
    criteria.length !== item.criteria.length ||
    !wholeNumber(judgeRepeat, 1, MOST_JUDGEMENTS) ||
    judgeRepeat % 2 === 0
  )
    return undefined;
  return { simulate, criteria, judgeRepeat };
}
