import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonical, type JsonObject } from '../../src/core/json';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { planTrial, type Proposal } from '../../src/core/trials/trial-plan';
import { namesDeleted } from '../../src/core/trials/trial-suites';

/**
 * Whatever a folder proposes and a suite names, the trial planner answers with copies or a problem: a copy for each
 * prompt that changes or is created and for none other, created in an order where every hand-over the create names
 * exists, and a problem exactly when a suite names a deleted prompt. Bounded as a whole by its number of runs.
 */
const FOLDERS = 10_000;
const IDS = [1, 2, 3, 4, 5, 6];
const FILES = ['ai_prompts/new-a.json', 'ai_prompts/new-b.json'];

const link = fc.oneof(fc.constant(null), fc.constantFrom(...IDS), fc.constantFrom(...FILES));
const fields = fc.record(
  {
    system: fc.constantFrom('Be kind.', 'Be brief.'),
    ai_model: fc.constantFrom('gpt', 'other'),
    settings: fc.constantFrom<JsonObject>({ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 2 }),
    next_prompt_id: link,
    exit_prompt_id: link,
  },
  { requiredKeys: [] },
);
const live = (id: number): JsonObject => ({
  id,
  name: `P${id}`,
  system: 'Be kind.',
  ai_model: 'gpt',
  settings: { a: 1, b: 2 },
  next_prompt_id: null,
  exit_prompt_id: id % 2 === 0 ? id - 1 : null,
});
const folder = fc.record({
  updated: fc.uniqueArray(fc.record({ id: fc.constantFrom(...IDS), fields }), { selector: (p) => p.id, maxLength: 6 }),
  created: fc.subarray(FILES),
  deleted: fc.subarray(IDS),
  named: fc.array(fc.oneof(fc.constantFrom(...IDS), fc.constantFrom(...IDS.map((id) => `P${id}`))), { maxLength: 4 }),
});

function changed(proposal: Proposal): boolean {
  if (proposal.id === undefined) return true;
  const held = live(proposal.id);
  return Object.entries(proposal.fields).some(([field, value]) => canonical(value) !== canonical(held[field]));
}

describe('trials: properties of the planner', function () {
  this.timeout(120_000);

  it(`plans copies for ${FOLDERS.toLocaleString('en-US')} generated folders with suites: only changed prompts, links in order, deleted names refused`, () => {
    fc.assert(
      fc.property(folder, ({ updated, created, deleted, named }) => {
        const updates = updated.filter((u) => !deleted.includes(u.id));
        const proposals: Proposal[] = [
          ...updates.map((u) => ({ id: u.id, name: `P${u.id}`, fields: u.fields })),
          ...created.map((file) => ({ file, name: file, fields: { name: file, system: 'New.' } })),
        ];
        const plan = planTrial(proposals, new Map(IDS.map((id) => [id, live(id)])));
        const expected = proposals.filter(changed).map((p) => p.id ?? p.file);
        assert.deepEqual(new Set(plan.copies.map((c) => c.id ?? c.file)), new Set(expected));
        assert.equal(plan.copies.length, expected.length, 'one copy each');
        let late = 0;
        for (const [index, copy] of plan.copies.entries()) {
          for (const l of copy.links) {
            const target = plan.copies[l.target];
            assert.ok(target, 'a link names a planned copy');
            assert.equal(l.atCreate, l.target < index, 'a create names only copies made before it');
            assert.ok(copy.fields[l.field] === target.id || copy.fields[l.field] === target.file);
          }
          if (copy.links.some((l) => !l.atCreate)) late++;
        }
        assert.equal(plan.requests, 2 * plan.copies.length + late);

        const { suite, problems: read } = parseSuite(
          JSON.stringify({
            prompt: 'P1',
            cases: [
              {
                name: 'c',
                turns: [
                  { prompt_text: 'x', expect: { response: { contains: 'x' } } },
                  ...named.map((ref) => ({ prompt_text: 'x', expect: { prompt: ref } })),
                ],
              },
            ],
          }),
        );
        assert.deepEqual(read, []);
        const problems = namesDeleted(
          suite as Suite,
          deleted.map((id) => ({ id, name: `P${id}` })),
        );
        const refs = [1, ...named];
        const hits = refs.filter((ref) => deleted.some((id) => ref === id || ref === `P${id}`));
        assert.equal(problems.length, hits.length, problems.join('; '));
      }),
      { numRuns: FOLDERS },
    );
  });
});
