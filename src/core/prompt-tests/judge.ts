/**
 * A judge prompt's verdict on a call (contract: "Simulated callers"): the
 * request a judgement is, the one answer that counts as a verdict, and the
 * majority of several. An answer that is not that verdict is an error that
 * quotes it; it never counts as a pass (a judge that cannot lie by accident).
 */
import { isJsonObject, type Json, type JsonObject } from '../json';
import { repeatedKey } from '../jsonc';
import { cut } from '../text';

export type JudgeVerdict = 'pass' | 'fail';

/** One judge answer, read. */
export interface JudgeAnswer {
  /** Written before the verdict: what the judge weighed. */
  reasoning: string;
  verdict: JudgeVerdict;
  /** The words of the call that decided it. */
  quote?: string;
}

/** What a criterion is judged on. */
export interface JudgeRequest {
  rubric: string;
  /** The criterion's name. */
  criterion: string;
  /** The call as text (see transcriptText). */
  transcript: string;
}

/** The majority of `judgeRepeat` answers; `unanimous` when they all agreed. */
export interface Judgement extends JudgeAnswer {
  unanimous: boolean;
  votes: { pass: number; fail: number };
}

/** A judge answer that is no verdict, or a judge that could not be asked: the judgement is an error, never a pass. */
export class JudgeError extends Error {}

/** test_prompt's body for one judgement: the transcript as the text, the rubric, criterion and transcript as parameters. */
export function judgeInputs(request: JudgeRequest): JsonObject {
  return {
    prompt_text: request.transcript,
    prompt_params: { rubric: request.rubric, criterion: request.criterion, transcript: request.transcript },
  };
}

const FENCE = /^```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/i;

/** Why `response` is not a verdict, or the verdict it is: one JSON object, alone or in a ```json fence. */
export function readJudgeAnswer(response: string): JudgeAnswer | { problem: string } {
  const trimmed = response.trim();
  const body = FENCE.exec(trimmed)?.[1] ?? trimmed;
  let value: Json;
  try {
    value = JSON.parse(body) as Json;
  } catch {
    return { problem: 'it is not one JSON object, alone or in a ```json fence' };
  }
  if (!isJsonObject(value)) return { problem: 'it is not one JSON object, alone or in a ```json fence' };
  // JSON.parse keeps a repeated key's last value: `"verdict":"fail","verdict":"pass"` would read as a pass.
  const repeated = repeatedKey(body);
  if (repeated !== undefined)
    return { problem: `it gives ${JSON.stringify(repeated)} twice, so what it says is ambiguous` };
  const { reasoning, verdict, quote } = value;
  if (typeof reasoning !== 'string' || reasoning.trim() === '') return { problem: '"reasoning" (a text) is missing' };
  if (verdict !== 'pass' && verdict !== 'fail')
    return { problem: `"verdict" must be "pass" or "fail", not ${JSON.stringify(verdict) ?? 'absent'}` };
  const keys = Object.keys(value);
  // Reasoning written after the verdict only defends it: the judge is asked to think first.
  if (keys.indexOf('reasoning') > keys.indexOf('verdict')) return { problem: '"reasoning" must come before "verdict"' };
  if (quote !== undefined && quote !== null && typeof quote !== 'string') return { problem: '"quote" must be a text' };
  return { reasoning, verdict, ...(typeof quote === 'string' && quote !== '' ? { quote } : {}) };
}

/** The judge's answer as a verdict, or a JudgeError naming the judge and quoting what it said. */
export function judgeAnswerOf(output: JsonObject, judge: string): JudgeAnswer {
  const response = typeof output.response === 'string' ? output.response : JSON.stringify(output.response ?? null);
  const read = readJudgeAnswer(response);
  if ('problem' in read)
    throw new JudgeError(`judge ${judge} gave no verdict (${read.problem}): ${JSON.stringify(cut(response, 200))}`);
  return read;
}

/** The verdict most answers gave, with the reasoning and quote of the first that gave it. */
export function majority(answers: readonly JudgeAnswer[]): Judgement {
  const pass = answers.filter((a) => a.verdict === 'pass').length;
  const fail = answers.length - pass;
  // judgeRepeat is odd, so there is no tie; were there one, the call would not pass on it.
  const verdict: JudgeVerdict = pass > fail ? 'pass' : 'fail';
  const first = answers.find((a) => a.verdict === verdict) as JudgeAnswer;
  return { ...first, verdict, unanimous: pass === 0 || fail === 0, votes: { pass, fail } };
}

/**
 * A criterion judged `repeat` times, the majority taken. `send` asks the judge prompt once; a failed request or an
 * answer that is no verdict makes the judgement an error.
 */
export async function judgeCriterion(
  send: (inputs: JsonObject) => Promise<JsonObject>,
  request: JudgeRequest,
  repeat: number,
  judge: string,
): Promise<Judgement> {
  const answers: JudgeAnswer[] = [];
  for (let i = 0; i < repeat; i++) answers.push(judgeAnswerOf(await send(judgeInputs(request)), judge));
  return majority(answers);
}
