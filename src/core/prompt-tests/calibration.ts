/**
 * How far a judge prompt can be trusted (contract: "Judge calibration"): its
 * majority verdicts on calls people labelled, compared with the labels.
 * A figure whose denominator is empty is null, never 0 or 1: "no pass label"
 * is not "every pass label missed".
 */
import type { JudgeVerdict } from './judge';

/** One label's outcome: the judge's majority, or `unreadable` when an answer was no verdict (it agrees with nothing). */
export interface LabelOutcome {
  expected: JudgeVerdict;
  judged: JudgeVerdict | 'unreadable';
  /** Every repeated judgement of the label gave the same verdict. */
  unanimous: boolean;
}

export interface Calibration {
  /** The labels weighed: judged or unreadable (a failed request or a cancelled label is no evidence). */
  labels: number;
  /** Labels judged as labelled / labels. */
  agreement: number | null;
  /** Pass labels judged pass / pass labels; null without a pass label. */
  tpr: number | null;
  /** Fail labels judged fail / fail labels; null without a fail label. */
  tnr: number | null;
  /**
   * Cohen's kappa between the judge's majorities and the labels: agreement beyond what the two verdict shares give by
   * chance. Null when chance alone agrees fully (every label and every verdict the same), where it is 0/0.
   */
  kappa: number | null;
  /** Labels whose repeated judgements all agreed / labels. */
  consistency: number | null;
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

export function calibrate(outcomes: readonly LabelOutcome[]): Calibration {
  const n = outcomes.length;
  const count = (test: (o: LabelOutcome) => boolean): number => outcomes.filter(test).length;
  const agreed = count((o) => o.judged === o.expected);
  const passLabels = count((o) => o.expected === 'pass');
  const failLabels = n - passLabels;
  // Chance agreement over the judge's three outcomes; labels are never unreadable, so that column adds nothing to it.
  const expected =
    n === 0
      ? 1
      : (passLabels * count((o) => o.judged === 'pass') + failLabels * count((o) => o.judged === 'fail')) / (n * n);
  const observed = share(agreed, n);
  return {
    labels: n,
    agreement: observed,
    tpr: share(
      count((o) => o.expected === 'pass' && o.judged === 'pass'),
      passLabels,
    ),
    tnr: share(
      count((o) => o.expected === 'fail' && o.judged === 'fail'),
      failLabels,
    ),
    kappa: observed === null || expected === 1 ? null : (observed - expected) / (1 - expected),
    consistency: share(
      count((o) => o.unanimous && o.judged !== 'unreadable'),
      n,
    ),
  };
}

/** Whether the judge meets `minKappa`: a kappa that could not be computed does not. */
export function meetsKappa(calibration: Pick<Calibration, 'kappa'>, minKappa: number): boolean {
  return calibration.kappa !== null && calibration.kappa >= minKappa;
}

/** "agreement 80%, TPR 83%, TNR 75%, kappa 0.58 (needs 0.60), consistency 90%"; a figure without a denominator as "n/a". */
export function calibrationLine(calibration: Calibration, minKappa: number): string {
  const percent = (value: number | null): string => (value === null ? 'n/a' : `${Math.round(value * 100)}%`);
  const kappa = calibration.kappa === null ? 'n/a' : calibration.kappa.toFixed(2);
  return `agreement ${percent(calibration.agreement)}, TPR ${percent(calibration.tpr)}, TNR ${percent(calibration.tnr)}, kappa ${kappa} (needs ${minKappa.toFixed(2)}), consistency ${percent(calibration.consistency)}`;
}
