// The pure half of `npm run bench`: statistics over samples, verdicts against goals and the Markdown table.

/** One row of the table: a candidate beside its floor, and the figure its goal bounds. */
export interface Measurement {
  measure: string;
  unit: 'ms' | 'KB' | 'MB' | 'requests';
  candidate: number;
  floor: number;
  /**
   * `ratio`: candidate ÷ floor must stay at most `goal`; `difference`: candidate − floor must; `bound`: the candidate
   * itself must (a time the issue sets), the floor shown beside it for what no implementation can save.
   */
  comparison: 'ratio' | 'difference' | 'bound';
  figure: number;
  goal: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('no samples: the median of nothing is undefined');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Candidate and floor sampled independently (interleaved): the ratio of their medians. */
export function ratioOfMedians(
  measure: string,
  candidate: readonly number[],
  floor: readonly number[],
  goal: number,
  unit: Measurement['unit'] = 'ms',
): Measurement {
  const c = median(candidate);
  const f = median(floor);
  return { measure, unit, candidate: c, floor: f, comparison: 'ratio', figure: c / f, goal };
}

/**
 * Candidate and floor sampled in pairs that share conditions (one extension host each): the median of the pairs'
 * ratios, so that a slow host slows both halves of its pair and cancels out.
 */
export function medianOfRatios(
  measure: string,
  pairs: readonly { candidate: number; floor: number }[],
  goal: number,
): Measurement {
  return {
    measure,
    unit: 'ms',
    candidate: median(pairs.map((pair) => pair.candidate)),
    floor: median(pairs.map((pair) => pair.floor)),
    comparison: 'ratio',
    figure: median(pairs.map((pair) => pair.candidate / pair.floor)),
    goal,
  };
}

/** Bytes beyond a floor (a bundle's size, memory grown), in KB or MB, against a goal in that unit. */
export function sizeDifference(
  measure: string,
  candidateBytes: number,
  floorBytes: number,
  goal: number,
  unit: 'KB' | 'MB' = 'KB',
): Measurement {
  const per = unit === 'KB' ? 1024 : 1024 * 1024;
  const candidate = candidateBytes / per;
  const floor = floorBytes / per;
  return { measure, unit, candidate, floor, comparison: 'difference', figure: candidate - floor, goal };
}

/** A time bounded by the issue rather than by its floor: the median candidate against `goalMs`. */
export function timeBound(
  measure: string,
  candidate: readonly number[],
  floor: readonly number[],
  goalMs: number,
): Measurement {
  const c = median(candidate);
  return { measure, unit: 'ms', candidate: c, floor: median(floor), comparison: 'bound', figure: c, goal: goalMs };
}

/** Peak memory bounded by the issue: the median candidate against `goalMb`, the floor's beside it for scale. */
export function memoryBound(
  measure: string,
  candidateMb: readonly number[],
  floorMb: readonly number[],
  goalMb: number,
): Measurement {
  return { ...timeBound(measure, candidateMb, floorMb, goalMb), unit: 'MB' };
}

/** NaN (a zero floor, say) is never within a goal. */
export function withinGoal(measurement: Measurement): boolean {
  return Number.isFinite(measurement.figure) && measurement.figure <= measurement.goal;
}

function quantity(value: number, unit: Measurement['unit']): string {
  if (unit === 'requests')
    return `${Number.isInteger(value) ? value : value.toFixed(1)} ${value === 1 ? 'request' : 'requests'}`;
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ${unit}`;
}

function figureText(measurement: Measurement, value: number): string {
  if (measurement.comparison === 'ratio') return `${value.toFixed(2)}×`;
  if (measurement.comparison === 'bound') return quantity(value, measurement.unit);
  return `${value < 0 ? '−' : '+'}${quantity(Math.abs(value), measurement.unit)}`;
}

export function formatTable(measurements: readonly Measurement[]): string {
  const rows = measurements.map((m) => [
    m.measure,
    quantity(m.candidate, m.unit),
    quantity(m.floor, m.unit),
    figureText(m, m.figure),
    `≤ ${figureText(m, m.goal)}`,
    withinGoal(m) ? 'yes' : '**no**',
  ]);
  return [
    '| measure | candidate | floor | ratio | goal | ok |',
    '|---|--:|--:|--:|--:|:-:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n');
}

/** 0 when every figure is within its goal, 1 otherwise. */
export function benchExitCode(measurements: readonly Measurement[]): number {
  return measurements.every(withinGoal) ? 0 : 1;
}
