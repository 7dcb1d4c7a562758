/**
 * A line diff in unified form (`@@ -a,b +c,d @@`, three lines of context), for
 * showing a reviewer how a prompt's text changed. Myers' algorithm on what is
 * left after the common head and tail, with a bound on its work: two long texts
 * that share little would cost time and memory growing with the product of
 * their edits and lengths, so past the bound the middle is shown as one
 * replacement, which is still a true diff, only a coarser one.
 */
import { LIMITS } from './limits';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

export interface Hunk {
  /** 1-based first line in each text; when the hunk holds no line of a text, the line before it (0 at the start). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** The bounds of the search, in steps and in edits found (core/limits.ts diffWork, diffEdits). */
export const DIFF_WORK_LIMIT = LIMITS.diffWork.value;
export const DIFF_EDIT_LIMIT = LIMITS.diffEdits.value;

/** A text's lines as the diff counts them: the empty text has none. */
export function linesOf(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/** The edit script of a middle that shares no first or last line: Myers' greedy search, kept per edit count to walk back. */
function middleScript(
  a: readonly string[],
  b: readonly string[],
  workLimit: number,
  editLimit: number,
): DiffLine[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, editLimit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v's diagonals -d..d as they were before step d, for the walk back.
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
      const start = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let x = start;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      work += 1 + x - start;
      v[offset + k] = x;
      if (x >= n && y >= m) return walkBack(a, b, trace, d, k);
      // Inside the step: one step's slides along many long equal runs can alone cost more than the bound.
      if (work > workLimit) return undefined;
    }
  }
  return undefined;
}

function walkBack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  last: number,
  lastK: number,
): DiffLine[] {
  const script: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  let k = lastK;
  for (let d = last; d > 0; d -= 1) {
    const before = trace[d] as Int32Array;
    // before[i] is where diagonal i - d reached after step d - 1.
    const at = (diagonal: number): number => before[diagonal + d] as number;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      x -= 1;
      y -= 1;
      script.push({ kind: 'same', text: a[x] as string });
    }
    if (down) {
      y -= 1;
      script.push({ kind: 'added', text: b[y] as string });
    } else {
      x -= 1;
      script.push({ kind: 'removed', text: a[x] as string });
    }
    k = prevK;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    script.push({ kind: 'same', text: a[x] as string });
  }
  return script.reverse();
}

/** Every line of both texts in order, each kept, removed or added; a shortest such script while within the bounds. */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  limits: { work?: number; edits?: number } = {},
): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  const same = (lines: readonly string[]): DiffLine[] => lines.map((text) => ({ kind: 'same', text }));
  const oldMiddle = a.slice(head, a.length - tail);
  const newMiddle = b.slice(head, b.length - tail);
  // Texts rewritten whole share no line: the replacement is then the shortest script, found without the search's square.
  const shared = new Set(oldMiddle);
  const search = newMiddle.some((line) => shared.has(line));
  const middle = (search
    ? middleScript(oldMiddle, newMiddle, limits.work ?? DIFF_WORK_LIMIT, limits.edits ?? DIFF_EDIT_LIMIT)
    : undefined) ?? [
    ...oldMiddle.map((text): DiffLine => ({ kind: 'removed', text })),
    ...newMiddle.map((text): DiffLine => ({ kind: 'added', text })),
  ];
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

/** The script's changes with `context` unchanged lines around each, runs closer than twice that joined into one hunk. */
export function hunksOf(script: readonly DiffLine[], context = 3): Hunk[] {
  const changed = script.flatMap((line, index) => (line.kind === 'same' ? [] : [index]));
  const hunks: Hunk[] = [];
  // Line numbers before each script entry, so a hunk's start is known wherever it begins.
  const oldBefore: number[] = [];
  const newBefore: number[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of script) {
    oldBefore.push(oldLine);
    newBefore.push(newLine);
    if (line.kind !== 'added') oldLine += 1;
    if (line.kind !== 'removed') newLine += 1;
  }
  let i = 0;
  while (i < changed.length) {
    const first = changed[i] as number;
    let last = first;
    while (i + 1 < changed.length && (changed[i + 1] as number) - last <= 2 * context + 1) {
      i += 1;
      last = changed[i] as number;
    }
    i += 1;
    const from = Math.max(0, first - context);
    const to = Math.min(script.length, last + context + 1);
    const lines = script.slice(from, to);
    const oldLines = lines.filter((l) => l.kind !== 'added').length;
    const newLines = lines.filter((l) => l.kind !== 'removed').length;
    const oldAt = oldBefore[from] as number;
    const newAt = newBefore[from] as number;
    hunks.push({
      oldStart: oldLines === 0 ? oldAt : oldAt + 1,
      oldLines,
      newStart: newLines === 0 ? newAt : newAt + 1,
      newLines,
      lines,
    });
  }
  return hunks;
}

const MARK: Readonly<Record<DiffLine['kind'], string>> = { same: ' ', removed: '-', added: '+' };

/** The unified diff of two texts, without file headers: `@@ -a,b +c,d @@` and its lines; none when they are equal. */
export function unifiedDiff(oldText: string, newText: string, context = 3): string[] {
  return hunksOf(diffLines(linesOf(oldText), linesOf(newText)), context).flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.map((line) => `${MARK[line.kind]}${line.text}`),
  ]);
}
