/**
 * A new suite's text: a comment header that is a cheat sheet of the suite
 * format (contract: "Prompt test suites" and the sections after it), then the
 * suite. New Prompt Test Suite writes it, and so does `npm start` for its
 * sample, so the first suite a person opens says what else a case can hold.
 */
import type { JsonObject } from '../json';
import type { Suite, SuiteTarget } from './suite';

export interface NewSuite {
  target: SuiteTarget;
  segment: Suite['resource']['segment'];
  /** The resource's name, as the suite names it. */
  name: string;
  cases: JsonObject[];
}

/** The header's lines for a prompt suite or an integration suite: only what its cases can hold. */
function header(segment: NewSuite['segment'], name: string): string[] {
  const prompt = segment === 'ai_prompts';
  return [
    `Test cases for ${prompt ? `the prompt "${name}" (test_prompt)` : `the integration "${name}" (execute_action)`}.`,
    'They show in the Testing view; `convai test <file or folder>` runs them from a terminal.',
    'Without "target", the setting convai.testTarget applies.',
    prompt
      ? 'A case: "name", "prompt_text", "prompt_params" (the placeholders\' values) and "expect", which maps'
      : 'A case: "name", "action", "params" and "expect", which maps',
    prompt
      ? 'each output (response, altered_prompt, next_prompt_id, next_prompt_params) to the value it must equal'
      : 'each output (result, status) to the value it must equal',
    '(a failure shows expected and actual) or to assertions: equals, contains, notContains, matches',
    '(a regular expression), maxLength, jsonSchema, speakable (true: no Markdown, URL or emoji), maxWords.',
    ...(prompt
      ? [
          'A conversation: "turns" instead of "prompt_text", each { "prompt_text", "prompt_params", "expect" };',
          'a turn goes to the prompt that the previous answer\'s next_prompt_id names, and its "expect" may name',
          'the "prompt" that must answer it.',
          'A simulated call: "simulate" { "caller" (a prompt that plays the caller), "persona", "opening", "maxTurns",',
          '"stopWhen", and params of the caller prompt } and "criteria", each { "name", "judge" (a judge prompt),',
          '"rubric" } or { "name", "expect" }; "judgeRepeat" (odd) judges each judged criterion that many times.',
        ]
      : []),
    '"maxMs" fails a run slower than that, in milliseconds, and "maxP95Ms" a case whose runs\' 95th percentile is.',
    '"repeat": N runs a case N times; "minPassRate" (0 to 1) is the share that must pass. A case\'s verdict: pass',
    "(every run passed), flaky (some failed, enough passed) or fail, with its pass rate and the rate's 95% interval.",
  ];
}

/** The suite's text: the header as comments, then the suite as JSON. */
export function suiteTemplate({ target, segment, name, cases }: NewSuite): string {
  const body = JSON.stringify({ target, [segment === 'ai_prompts' ? 'prompt' : 'integration']: name, cases }, null, 2);
  return [...header(segment, name).map((line) => `// ${line}`), body, ''].join('\n');
}
