/**
 * How far a repeated case's pass rate can be trusted, and whether it dropped
 * against a baseline or another version: the 95% Wilson score interval and Fisher's
 * exact test (one-sided against a baseline, two-sided between variants). Both are exact enough for the at most 100 runs a case may have.
 */

/** The normal quantile of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export interface Tally {
  passes: number;
  runs: number;
}

/** The 95% Wilson score interval of passes/runs, as [low, high] between 0 and 1; [0, 1] when nothing ran. */
export function wilsonInterval({ passes, runs }: Tally, z = Z95): [number, number] {
  if (runs <= 0) return [0, 1];
  const rate = passes / runs;
  const z2 = z * z;
  const denominator = 1 + z2 / runs;
  const centre = (rate + z2 / (2 * runs)) / denominator;
  const half = (z * Math.sqrt((rate * (1 - rate)) / runs + z2 / (4 * runs * runs))) / denominator;
  // At 0 or n passes an end is exactly 0 or 1, which floating point misses by a hair (5.6e-17 for 0/3).
  return [passes === 0 ? 0 : Math.max(0, centre - half), passes === runs ? 1 : Math.min(1, centre + half)];
}

/** ln(n!), summed: n is at most a few hundred here, and sums keep the small probabilities exact enough. */
const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  return logFactorials[n] as number;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * The one-sided Fisher exact test's p-value that `current` passes less often
 * than `baseline`: the chance, with both tallies drawn from one pass rate, of
 * the current runs holding as few passes as they do or fewer.
 */
export function dropPValue(baseline: Tally, current: Tally): number {
  const total = baseline.runs + current.runs;
  const passes = baseline.passes + current.passes;
  if (current.runs === 0 || baseline.runs === 0) return 1;
  const lowest = Math.max(0, passes - baseline.runs);
  const denominator = logChoose(total, current.runs);
  let p = 0;
  for (let k = lowest; k <= current.passes; k++) {
    p += Math.exp(logChoose(passes, k) + logChoose(total - passes, current.runs - k) - denominator);
  }
  return Math.min(1, p);
}

/** A drop with p < 0.05: unlikely to be chance. */
export function droppedSignificantly(baseline: Tally, current: Tally, alpha = 0.05): boolean {
  return dropPValue(baseline, current) < alpha;
}

/**
 * The two-sided Fisher exact test's p-value that `a` and `b` pass at different rates: the chance, with both tallies
 * drawn from one pass rate and the total passes as they are, of a split at most as likely as the one observed.
 */
export function differencePValue(a: Tally, b: Tally): number {
  if (a.runs === 0 || b.runs === 0) return 1;
  const total = a.runs + b.runs;
  const passes = a.passes + b.passes;
  const denominator = logChoose(total, a.runs);
  const logP = (k: number): number => logChoose(passes, k) + logChoose(total - passes, a.runs - k) - denominator;
  const observed = logP(a.passes);
  // Tables as likely as the observed one, to within rounding, count as at most as likely (R's fisher.test does so).
  const tolerance = 1e-7;
  let p = 0;
  for (let k = Math.max(0, passes - b.runs); k <= Math.min(passes, a.runs); k++) {
    const at = logP(k);
    if (at <= observed + tolerance) p += Math.exp(at);
  }
  return Math.min(1, p);
}

/** "48–86%": the interval in whole percents, widened outwards so it never claims more than it knows. */
export function intervalText([low, high]: readonly [number, number]): string {
  return `${Math.floor(low * 100)}–${Math.ceil(high * 100)}%`;
}

/** A case's latency in milliseconds: the median and 95th percentile of its answered runs' durations. */
export interface Latency {
  p50: number;
  p95: number;
}

/** The nearest-rank percentile of values sorted in ascending order (p from 0 to 100). */
function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] ?? Number.NaN;
}

/**
 * The nearest-rank percentile of `values` (p from 0 to 100): the smallest value at least p% of them do not exceed.
 * No interpolation: with few runs, the figure is a duration that was measured, not one between two.
 */
export function percentile(values: readonly number[], p: number): number {
  return nearestRank(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** The latency of the runs whose requests were answered; none without such a run. */
export function latencyOf(durationsMs: readonly number[]): Latency | undefined {
  if (durationsMs.length === 0) return undefined;
  const sorted = [...durationsMs].sort((a, b) => a - b);
  return { p50: Math.round(nearestRank(sorted, 50)), p95: Math.round(nearestRank(sorted, 95)) };
}
