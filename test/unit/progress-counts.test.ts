import * as assert from 'node:assert/strict';
import { LIMITS } from '../../src/core/limits';
import { countReports, type CountReport } from '../../src/core/progress-counts';

describe('counts shown in a progress', () => {
  const gap = LIMITS.progressReports.value;

  function counter(share?: number): {
    reports: CountReport[];
    count: (done: number, total: number) => void;
    clock: { at: number };
  } {
    const reports: CountReport[] = [];
    const clock = { at: 1_000 };
    const count = countReports(
      (shown) => reports.push(shown),
      (done, total) => `${done} of ${total}`,
      share,
      () => clock.at,
    );
    return { reports, count, clock };
  }

  it('shows the first count, then at most one per interval, and always the last', () => {
    const { reports, count, clock } = counter();
    for (let done = 1; done <= 1000; done++) {
      if (done % 100 === 0) clock.at += gap / 2;
      count(done, 1000);
    }
    assert.deepEqual(
      reports.map((r) => r.message),
      ['1 of 1000', '200 of 1000', '400 of 1000', '600 of 1000', '800 of 1000', '1000 of 1000'],
    );
  });

  it('moves the bar by what was done since the last count shown, to 100 in all', () => {
    const { reports, count, clock } = counter();
    for (let done = 1; done <= 65_000; done++) {
      if (done % 1000 === 0) clock.at += gap;
      count(done, 65_000);
    }
    const moved = reports.reduce((sum, r) => sum + r.increment, 0);
    assert.ok(Math.abs(moved - 100) < 1e-9, `moved ${moved}`);
    assert.ok(reports.every((r) => r.increment >= 0));
    assert.ok(reports.length < 100, `${reports.length} reports`);
  });

  it('moves the bar by its share when one progress counts several works', () => {
    const { reports, count } = counter(0.5);
    count(10, 10);
    assert.deepEqual(reports, [{ message: '10 of 10', increment: 50 }]);
  });

  it('fills the bar for an empty count, and never moves it back', () => {
    const { reports, count } = counter();
    count(0, 0);
    count(0, 0);
    assert.deepEqual(
      reports.map((r) => r.increment),
      [100, 0],
    );
  });
});
