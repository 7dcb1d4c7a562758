import * as assert from 'node:assert/strict';
import { affectedBy, affectedByPlan, type FolderResource } from '../../src/core/prompt-tests/affected';
import type { Suite } from '../../src/core/prompt-tests/suite';

describe('prompt tests: the suites a planned push affects', () => {
  const prompt = (
    id: number,
    name: string,
    links: { next_prompt_id?: number; exit_prompt_id?: number } = {},
  ): FolderResource => ({ segment: 'ai_prompts', id, values: { name, ...links } });
  // A → B → C (exit), D → D (a loop), E alone.
  const folder = [
    prompt(1, 'A', { next_prompt_id: 2 }),
    prompt(2, 'B', { exit_prompt_id: 3 }),
    prompt(3, 'C'),
    prompt(4, 'D', { next_prompt_id: 4 }),
    prompt(5, 'E'),
  ];
  const suite = (
    ref: string | number,
    segment: Suite['resource']['segment'] = 'ai_prompts',
  ): Pick<Suite, 'resource'> => ({ resource: { segment, ref } });

  it('takes the changed prompt and those whose links reach it, transitively, by name or id', () => {
    const affected = affectedBy([{ segment: 'ai_prompts', id: 3, name: 'C' }], folder);
    assert.deepEqual(
      ['A', 'B', 'C', 'D', 'E'].map((name) => affected(suite(name))),
      [true, true, true, false, false],
    );
    assert.equal(affected(suite(1)), true);
    assert.equal(affected(suite('2')), true);
    assert.equal(affected(suite('Orders API', 'integrations')), false);
  });

  it('takes a changed integration, a created prompt by name and a deleted one, and ends on loops', () => {
    const affected = affectedBy(
      [
        { segment: 'integrations', id: 9, name: 'Orders API' },
        { segment: 'ai_prompts', name: 'E' },
        { segment: 'ai_prompts', id: 7, name: 'Gone' },
      ],
      folder,
    );
    assert.equal(affected(suite('Orders API', 'integrations')), true);
    assert.equal(affected(suite('E')), true);
    assert.equal(affected(suite(7)), true);
    assert.equal(affected(suite('D')), false);
  });

  it("takes a suite that names a renamed prompt by its old name (the service's) or its new one (the folder's)", () => {
    const renamed = {
      segment: 'ai_prompts',
      id: 5,
      name: 'Welcome',
      values: [{ field: 'name', old: 'E', new: 'Welcome' }],
    };
    const affected = affectedBy([renamed], [...folder.slice(0, 4), prompt(5, 'Welcome')]);
    assert.deepEqual(
      ['E', 'Welcome', 5, 'D'].map((ref) => affected(suite(ref))),
      [true, true, true, false],
    );
    const described = affectedBy(
      [{ segment: 'ai_prompts', id: 5, name: 'E', values: [{ field: 'description', old: 'D' }] }],
      folder,
    );
    assert.equal(described(suite('D')), false, "another field's old value is no name of the prompt");
  });

  it('takes the prompts linking to a renamed prompt, under their own names', () => {
    const affected = affectedBy(
      [{ segment: 'ai_prompts', id: 3, name: 'Closing', values: [{ field: 'name', old: 'C' }] }],
      [...folder.slice(0, 2), prompt(3, 'Closing')],
    );
    assert.deepEqual(
      ['A', 'B', 'C', 'Closing'].map((name) => affected(suite(name))),
      [true, true, true, true],
    );
  });

  it('chooses no suite from a plan with problems: it gives the problems back instead', () => {
    const local = new Map(folder.map((r) => [`ai_prompts/${String(r.values.name)}.json`, r]));
    const changes = [{ segment: 'ai_prompts', id: 3, name: 'C' }];
    const problems = ['ai_prompts/E.json:1:1: the file is not valid JSON'];
    assert.deepEqual(affectedByPlan({ changes, problems, local }), { problems });
    const choice = affectedByPlan({ changes, problems: [], local });
    assert.ok('affected' in choice);
    assert.deepEqual(
      ['A', 'D'].map((name) => choice.affected(suite(name))),
      [true, false],
    );
  });
});
