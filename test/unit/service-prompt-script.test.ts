import * as assert from 'node:assert/strict';
import type { Json, JsonObject } from '../../src/core/json';
import { testPrompt } from '../service/operations';
import { HttpError } from '../service/replies';

/*
 * The local service's scripted prompts (test/service/README.md "Callers and
 * judges"): a prompt's settings make test_prompt answer as a caller or a
 * judge, so simulated calls can be tested over real HTTP.
 */

const never = (): boolean => false;
const always = (): boolean => true;

function prompt(settings: Json, fields: JsonObject = {}): JsonObject {
  return {
    name: 'Scripted',
    mode: 1,
    user_prompt: 'As {{persona}}',
    ai_model: 'm',
    next_prompt_id: null,
    settings: JSON.stringify(settings),
    ...fields,
  };
}

function answer(settings: Json, body: JsonObject, varies: (rate?: number) => boolean = never): JsonObject {
  return testPrompt(prompt(settings), body, varies);
}

/** The 422 body of a refused request. */
function refusal(settings: Json): Json {
  try {
    answer(settings, { prompt_text: 'x' });
  } catch (error) {
    if (error instanceof HttpError && error.status === 422) return error.payload;
    throw error;
  }
  assert.fail('expected a 422');
}

const refundCaller = {
  caller: {
    lines: [
      { when: '\\bdays\\b', say: '[end] thanks' },
      { when: 'help', say: 'I am {{persona}} and I want a refund' },
    ],
    otherwise: 'Hello?',
  },
};

const daysRules: JsonObject[] = [
  { when: '\\d+ days', rubric: 'refund', verdict: 'pass', reasoning: 'It names the days.' },
  { rubric: 'refund', verdict: 'fail', reasoning: 'No days named.', quote: 'none' },
];

/** A judge of whether a refund's days are named, with `fields` over its script. */
function daysJudge(fields: JsonObject = {}): JsonObject {
  return { judge: { rules: daysRules, otherwise: { verdict: 'fail', reasoning: 'Unknown rubric.' }, ...fields } };
}

const TRANSCRIPT = 'caller: I want a refund\nassistant (Billing): Refunds take 5 days.';

describe('local service: caller and judge prompts', () => {
  describe('a caller', () => {
    it("says the line of the first rule matching the assistant's answer, case-blind, with params filled in", () => {
      const params = { persona: 'Ada', transcript: '' };
      assert.equal(
        answer(refundCaller, { prompt_text: 'How can I HELP?', prompt_params: params }).response,
        'I am Ada and I want a refund',
      );
      assert.equal(
        answer(refundCaller, { prompt_text: 'Help takes 5 DAYS', prompt_params: params }).response,
        '[end] thanks',
        'the first matching rule wins',
      );
      assert.equal(answer(refundCaller, { prompt_text: 'Good morning', prompt_params: params }).response, 'Hello?');
    });

    it('hangs up when no line matches and there is no otherwise', () => {
      assert.equal(answer({ caller: { lines: [] } }, { prompt_text: 'anything' }).response, '[end]');
    });

    it('keeps the other output fields of test_prompt and follows no route', () => {
      const result = answer(refundCaller, { prompt_text: 'help', prompt_params: { persona: 'Ada' } });
      assert.deepEqual(result, {
        response: 'I am Ada and I want a refund',
        altered_prompt: 'As Ada',
        next_prompt_id: null,
        next_prompt_params: { persona: 'Ada' },
      });
    });

    it('says "I am not sure." in a varied answer', () => {
      assert.equal(answer(refundCaller, { prompt_text: 'days' }, always).response, 'I am not sure.');
    });
  });

  describe('a judge', () => {
    const judged = (settings: Json, rubric: string, varies?: () => boolean): string =>
      answer(
        settings,
        { prompt_text: 'ignored', prompt_params: { rubric, criterion: 'c', transcript: TRANSCRIPT } },
        varies,
      ).response as string;

    it("answers the contract's object, reasoning first, quoting what its when matched", () => {
      const text = judged(daysJudge(), 'Says how long a refund takes');
      assert.equal(text, '{"reasoning":"It names the days.","verdict":"pass","quote":"5 days"}');
    });

    it('takes a rule only when its rubric matches too, and a quote of its own', () => {
      assert.deepEqual(JSON.parse(judged(daysJudge({ rules: daysRules.slice(1) }), 'refund')), {
        reasoning: 'No days named.',
        verdict: 'fail',
        quote: 'none',
      });
      assert.deepEqual(JSON.parse(judged(daysJudge(), 'speaks plainly')), {
        reasoning: 'Unknown rubric.',
        verdict: 'fail',
      });
    });

    it('quotes the first group its when captured, when it has one', () => {
      const grouped = {
        judge: { rules: [{ when: 'assistant \\(\\w+\\): ([^\\n]*days)', verdict: 'pass', reasoning: 'r' }] },
      };
      assert.equal(JSON.parse(judged(grouped, 'refund')).quote, 'Refunds take 5 days');
    });

    it('judges prompt_text when no transcript parameter is sent', () => {
      const result = answer(daysJudge(), { prompt_text: 'assistant (A): 3 days', prompt_params: { rubric: 'refund' } });
      assert.equal(JSON.parse(result.response as string).verdict, 'pass');
      assert.equal(
        JSON.parse(answer(daysJudge(), { prompt_text: 'no', prompt_params: { rubric: 'refund' } }).response as string)
          .verdict,
        'fail',
      );
    });

    it('fails a call no rule matches, by default', () => {
      assert.deepEqual(JSON.parse(judged({ judge: { rules: [] } }, 'r')), {
        reasoning: 'No rule of this judge matched the transcript.',
        verdict: 'fail',
      });
    });

    it('writes the object in a ```json fence, or as prose or with the verdict twice, which a reader must refuse', () => {
      const fenced = judged(daysJudge({ format: 'fenced' }), 'refund');
      const match = /^```json\n([^]*)\n```$/.exec(fenced);
      assert.ok(match?.[1], fenced);
      assert.deepEqual(JSON.parse(match[1]), { reasoning: 'It names the days.', verdict: 'pass', quote: '5 days' });
      const broken = judged(daysJudge({ format: 'broken' }), 'refund');
      assert.equal(broken, 'Verdict: pass. It names the days.');
      assert.throws(() => JSON.parse(broken) as unknown);
      const twice = judged(daysJudge({ format: 'twice' }), 'refund');
      assert.equal(twice, '{"reasoning":"It names the days.","verdict":"fail","verdict":"pass","quote":"5 days"}');
    });

    it('reverses its verdict in a varied answer, unsure and quoting nothing', () => {
      assert.equal(judged(daysJudge(), 'refund', always), '{"reasoning":"I am not sure.","verdict":"fail"}');
      assert.equal(judged(daysJudge(), 'other', always), '{"reasoning":"I am not sure.","verdict":"pass"}');
    });
  });

  describe('routes and variation', () => {
    it("says a route's answer with params filled in, keeping the prompt's next prompt when the route names none", () => {
      const settings = { routes: [{ when: 'refund', say: '{{who}}, refunds take 5 days.', params: { who: 'Ada' } }] };
      const result = testPrompt(
        prompt(settings, { next_prompt_id: 7 }),
        { prompt_text: 'A refund?', prompt_params: { who: 'Bob', x: 1 } },
        never,
      );
      assert.deepEqual(result, {
        response: 'Ada, refunds take 5 days.',
        altered_prompt: 'As {{persona}}',
        next_prompt_id: 7,
        next_prompt_params: { who: 'Ada', x: 1 },
      });
    });

    it("draws at the prompt's own answerVariation when its settings set one, else at the service's", () => {
      const rates: Array<number | undefined> = [];
      const record = (rate?: number): boolean => (rates.push(rate), false);
      answer({ answerVariation: 0.25, ...refundCaller }, { prompt_text: 'x' }, record);
      answer(refundCaller, { prompt_text: 'x' }, record);
      assert.deepEqual(rates, [0.25, undefined]);
    });

    it('prefixes a caller\'s line "[simulated] " in mode 3, as every answer', () => {
      assert.equal(
        testPrompt(prompt(refundCaller, { mode: 3 }), { prompt_text: 'x' }, never).response,
        '[simulated] Hello?',
      );
    });
  });

  describe('refusals: 422 naming settings and where in them', () => {
    const cases: Array<[string, Json, string]> = [
      ['a caller that is no object', { caller: [] }, 'caller must be an object { lines: [{ when, say }], otherwise? }'],
      ['lines that are no array', { caller: { lines: {} } }, 'caller.lines must be an array of { when, say }'],
      [
        'a bad regular expression',
        { caller: { lines: [{ when: '(', say: 'x' }] } },
        'caller.lines[0].when is not a regular expression: ',
      ],
      [
        'an empty when',
        { caller: { lines: [{ when: '', say: 'x' }] } },
        'caller.lines[0].when must be a non-empty regular expression',
      ],
      [
        'a say that is no string',
        { caller: { lines: [{ when: 'a', say: 1 }] } },
        'caller.lines[0].say must be a string',
      ],
      ['an otherwise that is no string', { caller: { otherwise: null } }, 'caller.otherwise must be a string'],
      [
        'a judge verdict that is neither pass nor fail',
        { judge: { rules: [{ verdict: 'PASS', reasoning: 'r' }] } },
        'judge.rules[0].verdict must be "pass" or "fail"',
      ],
      [
        'a judge rule without reasoning',
        { judge: { rules: [{ verdict: 'pass' }] } },
        'judge.rules[0].reasoning must be a string',
      ],
      [
        'a bad rubric pattern',
        { judge: { rules: [{ rubric: '[', verdict: 'pass', reasoning: 'r' }] } },
        'judge.rules[0].rubric is not a regular expression: ',
      ],
      ['an unknown format', { judge: { format: 'yaml' } }, 'judge.format must be one of: json, fenced, broken, twice'],
      [
        'an otherwise that is no judgement',
        { judge: { otherwise: 'fail' } },
        'judge.otherwise must be an object { verdict, reasoning, quote? }',
      ],
      [
        'two roles at once',
        { caller: {}, judge: {} },
        'holds caller and judge; a prompt takes one of: routes, caller, judge',
      ],
      [
        'a route without next_prompt_id or say',
        { routes: [{ when: 'a' }] },
        'routes[0] needs next_prompt_id, say or both',
      ],
      [
        'a rate outside 0 to 1',
        { answerVariation: 2, caller: {} },
        'answerVariation must be a number from 0 to 1, got 2',
      ],
    ];
    for (const [name, settings, message] of cases) {
      it(name, () => {
        const payload = refusal(settings) as { errors: { settings: string[] } };
        assert.deepEqual(Object.keys(payload.errors), ['settings']);
        const [said] = payload.errors.settings;
        assert.ok(said?.startsWith(message), `${String(said)} starts with ${message}`);
      });
    }
  });
});
