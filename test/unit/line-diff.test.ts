import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffLines, hunksOf, linesOf, unifiedDiff, type DiffLine } from '../../src/core/line-diff';

/** The length of a longest common subsequence, by the textbook table: what a shortest script must keep. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const next = [0];
    b.forEach((other, j) =>
      next.push(line === other ? (row[j] as number) + 1 : Math.max(row[j + 1] as number, next[j] as number)),
    );
    row = next;
  }
  return row[b.length] as number;
}

const side = (script: readonly DiffLine[], drop: DiffLine['kind']): string[] =>
  script.filter((l) => l.kind !== drop).map((l) => l.text);

/** Applies a unified diff's hunks to the old text's lines, as patch would, checking each context and removed line. */
function applyUnified(oldLines: readonly string[], diff: readonly string[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < diff.length; i += 1) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(diff[i] as string);
    assert.ok(header, `a hunk header: ${diff[i]}`);
    const [oldStart, oldCount] = [Number(header[1]), Number(header[2])];
    const from = oldCount === 0 ? oldStart : oldStart - 1;
    out.push(...oldLines.slice(at, from));
    at = from;
    while (i + 1 < diff.length && !(diff[i + 1] as string).startsWith('@@')) {
      i += 1;
      const line = diff[i] as string;
      if (line.startsWith('+')) out.push(line.slice(1));
      else {
        assert.equal(oldLines[at], line.slice(1), "context and removed lines are the old text's");
        if (line.startsWith(' ')) out.push(line.slice(1));
        at += 1;
      }
    }
  }
  return [...out, ...oldLines.slice(at)];
}

describe('line diff', () => {
  it('shows one changed line with three lines of context each side', () => {
    const old = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n');
    const changed = ['1', '2', '3', '4', 'five', '6', '7', '8', '9'].join('\n');
    assert.deepEqual(unifiedDiff(old, changed), ['@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8']);
  });

  it('keeps changes far apart in two hunks and joins close ones', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const far = [...lines];
    far[2] = 'x';
    far[25] = 'y';
    assert.deepEqual(
      unifiedDiff(lines.join('\n'), far.join('\n')).filter((l) => l.startsWith('@@')),
      ['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@'],
    );
    const near = [...lines];
    near[2] = 'x';
    near[9] = 'y';
    assert.deepEqual(
      unifiedDiff(lines.join('\n'), near.join('\n')).filter((l) => l.startsWith('@@')),
      ['@@ -1,13 +1,13 @@'],
    );
  });

  it('counts a text that is new or emptied from line 0', () => {
    assert.deepEqual(unifiedDiff('', 'a\nb'), ['@@ -0,0 +1,2 @@', '+a', '+b']);
    assert.deepEqual(unifiedDiff('a', ''), ['@@ -1,1 +0,0 @@', '-a']);
    assert.deepEqual(unifiedDiff('same\ntext', 'same\ntext'), []);
    assert.deepEqual(linesOf(''), []);
  });

  it('finds a shortest script: it keeps as many lines as the longest common subsequence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 14 }),
        fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 14 }),
        (a, b) => {
          const script = diffLines(a, b);
          assert.deepEqual(side(script, 'added'), a);
          assert.deepEqual(side(script, 'removed'), b);
          assert.equal(script.filter((l) => l.kind === 'same').length, lcsLength(a, b));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes hunks that turn the old text into the new one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }),
        (a, b) => {
          assert.deepEqual(applyUnified(a, unifiedDiff(a.join('\n'), b.join('\n'))), linesOf(b.join('\n')));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('falls back to one replacement past its bound, and stays a true diff', () => {
    const a = ['head', 'x1', 'x2', 'x3', 'tail'];
    const b = ['head', 'y1', 'x2', 'y3', 'tail'];
    const coarse = diffLines(a, b, { edits: 1 });
    assert.deepEqual(
      coarse.map((l) => `${l.kind} ${l.text}`),
      ['same head', 'removed x1', 'removed x2', 'removed x3', 'added y1', 'added x2', 'added y3', 'same tail'],
    );
    assert.deepEqual(
      diffLines(a, b)
        .filter((l) => l.kind === 'same')
        .map((l) => l.text),
      ['head', 'x2', 'tail'],
    );
  });

  it('diffs two long texts that share lines but little order in bounded time', () => {
    // A fixed pseudo-random walk, so the texts are the same on every run.
    let seed = 7;
    const next = (): string => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return `line ${seed % 20}`;
    };
    const a = Array.from({ length: 30_000 }, next);
    const b = Array.from({ length: 30_000 }, next);
    const started = process.hrtime.bigint();
    const script = diffLines(a, b);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 2_000, `took ${ms} ms`);
    assert.deepEqual(side(script, 'added'), a);
    assert.deepEqual(side(script, 'removed'), b);
  });

  it('diffs two long texts that share nothing in bounded time', () => {
    const a = Array.from({ length: 50_000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 50_000 }, (_, i) => `new ${i}`);
    const started = process.hrtime.bigint();
    const script = diffLines(a, b);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(script.length, 100_000);
    assert.ok(ms < 2_000, `took ${ms} ms`);
    const hunks = hunksOf(script);
    assert.equal(hunks.length, 1);
    assert.deepEqual(
      [hunks[0]?.oldStart, hunks[0]?.oldLines, hunks[0]?.newStart, hunks[0]?.newLines],
      [1, 50_000, 1, 50_000],
    );
  });
});
