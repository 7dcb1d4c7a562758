/**
 * The parts a tenant's tests give its prompts on the flow map: a simulated call's caller and a judge are test
 * prompts, the prompt a conversation or a call starts on is an opener, and neither is called unreachable.
 */
import * as assert from 'node:assert/strict';
import { buildFlowMap } from '../../src/core/flow-map/build';
import type { MapResource } from '../../src/core/flow-map/model';
import { promptRole, promptUses, type TenantTests } from '../../src/core/flow-map/prompt-roles';
import type { JsonObject } from '../../src/core/json';
import { parseJudgeFile } from '../../src/core/prompt-tests/judge-file';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Segment } from '../../src/core/resource-kind';

const at = (segment: Segment, id: number, name: string, values: JsonObject = {}): MapResource => ({
  segment,
  id,
  name,
  values: { name, ...values },
});

/** An assistant whose intent leads to Triage, and the prompts its tests play parts with, none of which anything leads to. */
const TENANT = [
  at('ai_prompts', 1, 'Greeting', { next_prompt_id: 2 }),
  at('ai_prompts', 2, 'Triage'),
  at('ai_prompts', 3, 'Caller: Broken Kettle'),
  at('ai_prompts', 4, 'Call Judge'),
  at('ai_prompts', 5, 'Label Judge'),
  at('ai_prompts', 6, 'Forgotten'),
  at('intents', 1, 'orders', { ai_prompt_id: 2 }),
];

function suite(value: unknown): NonNullable<ReturnType<typeof parseSuite>['suite']> {
  const { suite: read, problems } = parseSuite(JSON.stringify(value));
  assert.deepEqual(problems, []);
  assert.ok(read);
  return read;
}

/** A suite of Greeting with a simulated call (its caller by name, its judge by id) and a judge file of Label Judge. */
function tests(): TenantTests {
  const call = suite({
    prompt: 'Greeting',
    cases: [
      {
        name: 'refund call',
        simulate: { caller: 'Caller: Broken Kettle', persona: 'Annoyed.', opening: 'Hello?' },
        criteria: [
          { name: 'says the days', judge: 4, rubric: 'Says how many days a refund takes.' },
          { name: 'reaches triage', expect: { prompt: 'Triage' } },
        ],
      },
    ],
  });
  const label = { name: 'days given', rubric: 'Says the days.', transcript: 'caller: refund?', expected: 'pass' };
  const { file, problems } = parseJudgeFile(JSON.stringify({ judge: 'Label Judge', labels: [label] }));
  assert.deepEqual(problems, []);
  assert.ok(file);
  return { suites: [call], judges: [file] };
}

describe('flow map: the roles tests give prompts', () => {
  it("names a simulated call's caller, its judges and a judge file's judge test prompts, and the suite's prompt an opener", () => {
    const uses = promptUses(tests());
    const roles = TENANT.filter((r) => r.segment === 'ai_prompts').map((r) => [r.name, promptRole(r, uses)]);
    assert.deepEqual(roles, [
      ['Greeting', 'opener'],
      ['Triage', undefined],
      ['Caller: Broken Kettle', 'test'],
      ['Call Judge', 'test'],
      ['Label Judge', 'test'],
      ['Forgotten', undefined],
    ]);
  });

  it('leaves test prompts and openers out of the unreachable problems, and marks their nodes', () => {
    const before = buildFlowMap(TENANT);
    assert.deepEqual(
      before.problems.map((p) => p.kind === 'unreachable' && p.node),
      ['ai_prompts/1', 'ai_prompts/3', 'ai_prompts/4', 'ai_prompts/5', 'ai_prompts/6'],
      'without the tests, every prompt no intent leads to is unreachable',
    );
    const map = buildFlowMap(TENANT, undefined, promptUses(tests()));
    assert.deepEqual(map.problems, [{ kind: 'unreachable', node: 'ai_prompts/6' }]);
    assert.deepEqual(
      map.nodes.filter((n) => n.role !== undefined).map((n) => [n.id, n.role]),
      [
        ['ai_prompts/1', 'opener'],
        ['ai_prompts/3', 'test'],
        ['ai_prompts/4', 'test'],
        ['ai_prompts/5', 'test'],
      ],
    );
    assert.ok(
      !('role' in (map.nodes.find((n) => n.id === 'ai_prompts/2') ?? {})),
      'a prompt of the assistant alone has no role field',
    );
  });

  it('makes no opener of a suite of single-turn cases, nor of an integration suite', () => {
    const single = suite({ prompt: 'Greeting', cases: [{ name: 'hello', prompt_text: 'Hi', expect: {} }] });
    const integration = suite({
      integration: 'Greeting',
      cases: [{ name: 'status', action: 'get', expect: {} }],
    });
    const uses = promptUses({ suites: [single, integration], judges: [] });
    assert.deepEqual(uses, { test: [], opener: [] });
    assert.equal(promptRole({ id: 1, name: 'Greeting' }, uses), undefined);
  });

  it("names a conversation's first prompt an opener, by id too, and a folder's new prompt by its name", () => {
    const conversation = suite({
      prompt: 2,
      cases: [
        {
          name: 'two turns',
          turns: [
            { prompt_text: 'Hi', expect: {} },
            { prompt_text: 'Refund', expect: {} },
          ],
        },
      ],
    });
    const uses = promptUses({ suites: [conversation], judges: [{ judge: 'New Judge' }] });
    assert.equal(promptRole({ id: 2, name: 'Triage' }, uses), 'opener');
    assert.equal(promptRole({ name: 'New Judge' }, uses), 'test', 'a prompt not pushed yet has no id');
    assert.equal(promptRole({ id: 12, name: 'Other' }, uses), undefined);
  });
});
