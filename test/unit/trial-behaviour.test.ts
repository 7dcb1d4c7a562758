import * as assert from 'node:assert/strict';
import { BehaviourError, behaviourRows, behaviourSection, mergedRows } from '../../src/core/trials/behaviour';

const report = (cases: object[], file = 'suites/a.prompttest.json'): string =>
  JSON.stringify({ passed: 0, failed: 0, suites: [{ file, cases }], trial: { tag: '0123abcd', copies: [] } });
const tallied = (name: string, trial: number, live: number, extra: object = {}): object => ({
  name,
  runs: 5,
  passes: trial,
  live: { runs: 5, passes: live, errors: 0, passRate: live / 5, interval: [0, 1], verdict: 'pass' },
  ...extra,
});

describe('trials: the Behaviour section of a plan', () => {
  it('reads each case compared with live, and orders regressed, improved, then the rest', () => {
    const rows = behaviourRows(
      report([
        tallied('same', 5, 5),
        tallied('better', 5, 0, { improved: true }),
        tallied('worse', 0, 5, { regressed: true }),
      ]),
      'r.json',
    );
    const section = behaviourSection(rows, 10_000);
    assert.equal(section[0], '#### Behaviour');
    assert.deepEqual(
      section.filter((l) => l.startsWith('| `')),
      [
        '| `suites/a.prompttest.json` | `worse` | 5/5 | 0/5 | **regressed** |',
        '| `suites/a.prompttest.json` | `better` | 0/5 | 5/5 | **improved** |',
        '| `suites/a.prompttest.json` | `same` | 5/5 | 5/5 | same |',
      ],
    );
    assert.match(section.join('\n'), /1 regressed, 1 improved, 1 same/);
  });

  it('keeps a name as text in its cell: a pipe cannot split the table, nor a backtick end the span', () => {
    const [row] = behaviourSection(
      behaviourRows(report([tallied('a | b `c`', 5, 5)], 'x|y.json'), 'r.json'),
      10_000,
    ).filter((l) => l.startsWith('| `'));
    assert.equal(row, '| `x\\|y.json` | `` a \\| b `c` `` | 5/5 | 5/5 | same |');
  });

  it('stops at its share of the comment and says how many cases are left out', () => {
    const rows = behaviourRows(report(Array.from({ length: 50 }, (_, i) => tallied(`case ${i}`, 5, 5))), 'r.json');
    const section = behaviourSection(rows, 600);
    assert.ok(section.join('\n').length < 800);
    assert.match(section.join('\n'), /… and \d+ more cases/);
  });

  it('refuses a report of no trial, or of a trial run without --compare, naming it', () => {
    assert.throws(
      () => behaviourRows('{"suites": []}', 'plain.json'),
      (e: unknown) => e instanceof BehaviourError && /plain\.json is no trial's report/.test(e.message),
    );
    assert.throws(() => behaviourRows('nope', 'bad.json'), /bad\.json is not JSON/);
    assert.throws(
      () => behaviourRows(report([{ name: 'x', runs: 1, passes: 1 }]), 'live-less.json'),
      /live-less\.json compares no case with live/,
    );
  });

  it("merges shards' reports, and refuses a case two of them hold", () => {
    const one = behaviourRows(report([tallied('a', 5, 5)]), 'one.json');
    const two = behaviourRows(report([tallied('b', 5, 5)]), 'two.json');
    assert.equal(
      mergedRows([
        { name: 'one.json', rows: one },
        { name: 'two.json', rows: two },
      ]).length,
      2,
    );
    assert.throws(
      () =>
        mergedRows([
          { name: 'one.json', rows: one },
          { name: 'again.json', rows: one },
        ]),
      /case "a" of suites\/a.prompttest.json is in both one.json and again.json/,
    );
  });
});
