/**
 * A prompt that plays a judge of simulated calls: its `settings.judge` picks a
 * verdict by the transcript and rubric sent, and writes it in the form the
 * contract asks of a judge, or in one it must refuse.
 */

import { isJsonObject, type Json, own } from '../../src/core/json';
import { optionalPattern, settingsError, text } from './settings-fields';

type Verdict = 'pass' | 'fail';

/** The contract's object, its keys in this order: the reasoning is written before the verdict. */
export interface Judgement {
  reasoning: string;
  verdict: Verdict;
  quote?: string;
}

interface JudgeRule extends Judgement {
  when?: RegExp;
  rubric?: RegExp;
}

const FORMATS = ['json', 'fenced', 'broken', 'twice'] as const;
type Format = (typeof FORMATS)[number];

export interface JudgeScript {
  rules: JudgeRule[];
  otherwise: Judgement;
  format: Format;
}

const NO_RULE: Judgement = { reasoning: 'No rule of this judge matched the transcript.', verdict: 'fail' };
const RULE_SHAPE = '{ when?, rubric?, verdict, reasoning, quote? }';

/** `settings.judge`: `{ rules: [...], otherwise?, format? }`, or what is wrong with it. */
export function parseJudge(judge: Json): JudgeScript {
  if (!isJsonObject(judge))
    throw settingsError(`judge must be an object { rules: [${RULE_SHAPE}], otherwise?, format? }`);
  const rules = own(judge, 'rules') ?? [];
  if (!Array.isArray(rules)) throw settingsError(`judge.rules must be an array of ${RULE_SHAPE}`);
  const otherwise = own(judge, 'otherwise');
  return {
    rules: rules.map((rule, index) => parseRule(rule, `judge.rules[${index}]`)),
    otherwise: otherwise === undefined ? NO_RULE : parseJudgement(otherwise, 'judge.otherwise'),
    format: parseFormat(own(judge, 'format')),
  };
}

function parseRule(rule: Json, where: string): JudgeRule {
  if (!isJsonObject(rule)) throw settingsError(`${where} must be an object ${RULE_SHAPE}`);
  return {
    when: optionalPattern(own(rule, 'when'), `${where}.when`),
    rubric: optionalPattern(own(rule, 'rubric'), `${where}.rubric`),
    ...parseJudgement(rule, where),
  };
}

function parseJudgement(value: Json, where: string): Judgement {
  if (!isJsonObject(value)) throw settingsError(`${where} must be an object { verdict, reasoning, quote? }`);
  const verdict = own(value, 'verdict');
  if (verdict !== 'pass' && verdict !== 'fail') throw settingsError(`${where}.verdict must be "pass" or "fail"`);
  const quote = own(value, 'quote');
  const judgement: Judgement = { reasoning: text(own(value, 'reasoning'), `${where}.reasoning`), verdict };
  return quote === undefined ? judgement : { ...judgement, quote: text(quote, `${where}.quote`) };
}

function parseFormat(format: Json | undefined): Format {
  if (format === undefined) return 'json';
  const known = FORMATS.find((name) => name === format);
  if (known === undefined) throw settingsError(`judge.format must be one of: ${FORMATS.join(', ')}`);
  return known;
}

/**
 * The first rule whose `when` matches the transcript and whose `rubric`
 * matches the rubric (an absent one matches anything), else `otherwise`. A
 * rule without a `quote` quotes what its `when` matched (its first group when
 * it has one): the words that decided it, as the contract asks of a judge.
 */
export function judgement(script: JudgeScript, transcript: string, rubric: string): Judgement {
  for (const { when, rubric: rubricPattern, ...answer } of script.rules) {
    const found = when ? when.exec(transcript) : undefined;
    if (found === null || (rubricPattern && !rubricPattern.test(rubric))) continue;
    return answer.quote === undefined && found ? { ...answer, quote: found[1] ?? found[0] } : answer;
  }
  return script.otherwise;
}

/**
 * The response text: the object alone, in a ```json fence, or one a reader must refuse: prose naming the verdict, or
 * the object with `verdict` given twice, the other verdict first (JSON.parse keeps the last).
 */
export function judgeResponse(format: Format, answer: Judgement): string {
  switch (format) {
    case 'json':
      return JSON.stringify(answer);
    case 'fenced':
      return `\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\``;
    case 'broken':
      return `Verdict: ${answer.verdict}. ${answer.reasoning}`;
    case 'twice':
      return JSON.stringify(answer).replace(
        /"verdict":/,
        `"verdict":${JSON.stringify(answer.verdict === 'pass' ? 'fail' : 'pass')},"verdict":`,
      );
  }
}
