/**
 * The flow map's coverage from recorded runs: suites run by the real engine
 * against a scripted service, their results read as the CLI and the Testing
 * view hold them.
 */
import * as assert from 'node:assert/strict';
import { coverageByTenant, coverageOf, promptNodes, type RecordedSuite } from '../../src/core/flow-map/coverage';
import type { FlowNode } from '../../src/core/flow-map/model';
import type { JsonObject } from '../../src/core/json';
import { runSuite } from '../../src/core/prompt-tests/run';
import type { ExecuteContext, SuiteResult } from '../../src/core/prompt-tests/types';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import type { TenantSegment } from '../../src/core/resource-kind';

/** Greeting (1) hands a refund over to Billing (2), an order to Orders (3), which does not answer; Caller (10) plays the caller; Judge (20) judges. */
const names = new Map([
  [1, 'Greeting'],
  [2, 'Billing'],
  [3, 'Orders'],
  [10, 'Caller'],
  [20, 'Judge'],
]);

function answer(promptId: number, text: string): Promise<JsonObject> {
  if (promptId === 3) return Promise.reject(new Error('HTTP 503: the model is unavailable'));
  if (promptId === 10) return Promise.resolve({ response: /billing/i.test(text) ? '[end]' : 'I want a refund' });
  if (promptId === 20)
    return Promise.resolve({ response: JSON.stringify({ reasoning: 'It hands over.', verdict: 'pass' }) });
  if (promptId === 2) return Promise.resolve({ response: 'Refunds take five days.', next_prompt_id: null });
  const next = /refund/i.test(text) ? 2 : /order/i.test(text) ? 3 : null;
  return Promise.resolve({ response: next === null ? 'Hello!' : 'Let me get someone.', next_prompt_id: next });
}

/** A suite's cases run against `id` of `segment` in `tenantId`, recorded as a run of the CLI or the Testing view. */
async function ran(
  tenantId: number,
  id: number,
  cases: JsonObject[],
  segment: TenantSegment = 'ai_prompts',
): Promise<RecordedSuite & { result: SuiteResult }> {
  const resource = segment === 'ai_prompts' ? { prompt: id } : { integration: id };
  const { suite, problems } = parseSuite(JSON.stringify({ ...resource, cases }));
  assert.deepEqual(
    problems.map((p) => p.message),
    [],
  );
  const send = (_testCase: unknown, { turn }: ExecuteContext): Promise<JsonObject> =>
    turn
      ? answer(turn.promptId, String(turn.inputs.prompt_text))
      : segment === 'ai_prompts'
        ? answer(id, 'hello')
        : Promise.resolve({ result: 'pong' });
  const result = await runSuite(suite as Suite, { send, prompts: { first: id, names } });
  return { target: { kind: { segment }, id, tenantId }, result };
}

const says = (response: string): JsonObject => ({
  name: `says ${response}`,
  prompt_text: 'hello',
  expect: { response },
});
const prompts = (...ids: number[]): Array<Pick<FlowNode, 'id' | 'segment'>> => promptNodes(ids);

describe('flow map: coverage from recorded runs', () => {
  it("a prompt is passed when its cases passed, failed when any failed, and the tenant's other prompts are untested", async () => {
    const greeting = await ran(1, 1, [says('Hello!'), { ...says('Hello!'), name: 'greets again' }]);
    const billing = await ran(1, 2, [says('Refunds take five days.'), says('Never.')]);
    assert.deepEqual(coverageOf([greeting, billing], prompts(1, 2, 3)), {
      nodes: { 'ai_prompts/1': 'passed', 'ai_prompts/2': 'failed', 'ai_prompts/3': 'untested' },
      edges: [],
    });
  });

  it('counts no case whose runs errored: neither passed nor tested, even when its other runs passed', async () => {
    const orders = await ran(1, 3, [says('anything')]);
    assert.equal(orders.result.cases[0]?.errors, 1);
    // Greeting answered the first turn and handed over to Orders, whose turn errored: the run is no evidence of either.
    const throughOrders = await ran(1, 1, [
      { name: 'talks', turns: [{ prompt_text: 'my order' }, { prompt_text: 'where is it?' }] },
    ]);
    assert.deepEqual(
      throughOrders.result.cases[0]?.details[0]?.turns?.map((t) => t.promptId),
      [1, 3],
    );
    assert.deepEqual(coverageOf([orders, throughOrders], prompts(1, 3)), {
      nodes: { 'ai_prompts/1': 'untested', 'ai_prompts/3': 'untested' },
      edges: [],
    });
    const partly = orders.result.cases[0] ?? assert.fail();
    const answered = { ...partly, passes: 1, runs: 1, details: [{ error: undefined }, ...partly.details] };
    assert.deepEqual(
      coverageOf([{ ...orders, result: { cases: [answered] } }], prompts(3)).nodes,
      { 'ai_prompts/3': 'untested' },
      'one errored run of two leaves the case unpassed, so no result',
    );
  });

  it('a conversation reaches every prompt that answered a turn, and its hand-overs are the edges, each once', async () => {
    const talks = await ran(1, 1, [
      {
        name: 'refund',
        turns: [
          { prompt_text: 'Hi', expect: { prompt: 'Greeting' } },
          { prompt_text: 'refund please' },
          { prompt_text: 'thanks', expect: { prompt: 'Billing' } },
        ],
      },
      { name: 'refund again', turns: [{ prompt_text: 'refund' }, { prompt_text: 'thanks' }] },
    ]);
    assert.deepEqual(coverageOf([talks], prompts(1, 2, 3)), {
      nodes: { 'ai_prompts/1': 'passed', 'ai_prompts/2': 'passed', 'ai_prompts/3': 'untested' },
      edges: ['ai_prompts/1 -> ai_prompts/2'],
    });
    const failing = await ran(1, 1, [
      { name: 'refund', turns: [{ prompt_text: 'refund' }, { prompt_text: 'thanks', expect: { response: 'Now.' } }] },
    ]);
    assert.deepEqual(
      coverageOf([talks, failing], prompts(1, 2)),
      {
        nodes: { 'ai_prompts/1': 'failed', 'ai_prompts/2': 'failed' },
        edges: ['ai_prompts/1 -> ai_prompts/2'],
      },
      'a failing conversation fails every prompt it went through, and its hand-overs were still taken',
    );
  });

  it("a simulated call reaches the assistant's prompts, not its caller nor its judge", async () => {
    const call = await ran(1, 1, [
      {
        name: 'call',
        simulate: { caller: 'Caller', persona: 'Wants a refund.', opening: 'Hello?', maxTurns: 4 },
        criteria: [
          { name: 'hands over', judge: 'Judge', rubric: 'Billing answers.' },
          { name: 'billing', expect: { prompt: 'Billing' } },
        ],
      },
    ]);
    assert.equal(call.result.cases[0]?.passed, true);
    assert.deepEqual(coverageOf([call], prompts(1, 2, 10, 20)), {
      nodes: {
        'ai_prompts/1': 'passed',
        'ai_prompts/2': 'passed',
        'ai_prompts/10': 'untested',
        'ai_prompts/20': 'untested',
      },
      edges: ['ai_prompts/1 -> ai_prompts/2'],
    });
  });

  it("from the map's nodes: other kinds are not untested, but an integration a suite tested is there", async () => {
    const api = await ran(1, 7, [{ name: 'ping', action: 'ping', expect: { result: 'pong' } }], 'integrations');
    const nodes: FlowNode[] = [
      { id: 'ai_prompts/1', segment: 'ai_prompts', name: 'Greeting' },
      { id: 'intents/4', segment: 'intents', name: 'refund' },
      { id: 'integrations/7', segment: 'integrations', name: 'Orders API' },
    ];
    assert.deepEqual(coverageOf([api], nodes).nodes, { 'ai_prompts/1': 'untested', 'integrations/7': 'passed' });
  });

  it('gives one entry per tenant the suites ran against, each with its own prompts', async () => {
    const one = await ran(1, 1, [says('Hello!')]);
    const two = await ran(2, 2, [says('Never.')]);
    const listings = new Map([
      [1, [1, 2]],
      [2, [2, 5]],
    ]);
    assert.deepEqual(
      coverageByTenant([two, one], (tenantId) => promptNodes(listings.get(tenantId) ?? [])),
      [
        { tenantId: 1, nodes: { 'ai_prompts/1': 'passed', 'ai_prompts/2': 'untested' }, edges: [] },
        { tenantId: 2, nodes: { 'ai_prompts/2': 'failed', 'ai_prompts/5': 'untested' }, edges: [] },
      ],
    );
  });
});
