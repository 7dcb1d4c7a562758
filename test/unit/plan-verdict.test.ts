import * as assert from 'node:assert/strict';
import type { PlannedChange } from '../../src/core/tenant/plan';
import { planVerdict } from '../../src/core/tenant/plan-verdict';

const change = (action: PlannedChange['action'], file: string, reason?: string): PlannedChange => ({
  action,
  segment: 'ai_prompts',
  id: 1,
  name: file,
  fields: [],
  file,
  values: [],
  ...(reason ? { reason } : {}),
});

describe('the verdict on a plan: would a push refuse it?', () => {
  it('lets a push send a plan without conflict or problem, and says nothing against it', () => {
    const verdict = planVerdict({ changes: [change('update', 'a.json'), change('delete', 'b.json')], problems: [] });
    assert.deepEqual(
      [verdict.pushable, verdict.held, verdict.blocked, verdict.sentence, verdict.refusal],
      [true, '', '', '', ''],
    );
    assert.equal(verdict.summary, '2 changes, sent in this order.');
    assert.equal(planVerdict({ changes: [], problems: [] }).summary, 'no change in the folder since the pull.');
    assert.equal(
      planVerdict({ changes: [], problems: ['a.json:1:1: x'] }).summary,
      'no change to push, but the problems below must be fixed first.',
    );
  });

  it('refuses a conflict or a problem, counting both in one sentence with what to do', () => {
    const verdict = planVerdict({
      changes: [
        change('update', 'a.json'),
        change('conflict', 'b.json', 'changed on the service since the pull (system)'),
      ],
      problems: ['c.json:1:2: name: x', 'd.json:1:1: y'],
    });
    assert.equal(verdict.pushable, false);
    assert.equal(verdict.held, '1 conflict and 2 problems');
    assert.equal(
      verdict.summary,
      '2 changes, sent in this order; 1 conflict and 2 problems, so a push sends nothing until they are resolved.',
    );
    assert.equal(
      verdict.sentence,
      "The plan holds 1 conflict and 2 problems, which a push would refuse: pull again to take the service's state (changed files are kept) and merge, fix the files named, then plan again.",
    );
    assert.match(
      planVerdict({ changes: [], problems: ['x'] }, 'so it was not saved').sentence,
      /^The plan holds 1 problem, which a push would refuse, so it was not saved: fix the files named, then plan again\.$/,
    );
  });

  it("names each conflict in a push's refusal, else each problem", () => {
    const conflicted = planVerdict({
      changes: [change('conflict', 'b.json', 'deleted on the service since the pull')],
      problems: ['c.json:1:2: name: x'],
    });
    assert.match(
      conflicted.refusal,
      /^Nothing was sent: 1 resource changed both here and on the service since the pull: b\.json: deleted on the service since the pull\. Pull again: /,
    );
    assert.equal(
      planVerdict({ changes: [], problems: ['c.json:1:2: x', 'd.json:1:1: y'] }).refusal,
      'Nothing was sent: c.json:1:2: x; d.json:1:1: y',
    );
  });
});
