/**
 * What a variant matrix comes to (contract: "Variant lab"): each column (the base, then each variant) pooled over its
 * cases, each cell a case's figures in that column, and each variant against the base by a two-sided Fisher exact
 * test on pooled passes and failures. Errored runs are no evidence: they are counted apart, never as failures.
 */
import { pText } from '../prompt-tests/case-messages';
import { differencePValue, latencyOf, wilsonInterval, type Latency } from '../prompt-tests/statistics';
import type { CaseResult, SuiteResult, Verdict } from '../prompt-tests/types';
import { BASE_NAME } from './variant-spec';

/** The significance a difference must reach before a variant is called better or worse. */
export const ALPHA = 0.05;

export interface CellReport {
  name: string;
  runs: number;
  passes: number;
  errors: number;
  passRate: number;
  interval: [number, number];
  verdict: Verdict;
  latency?: Latency;
}

export interface VsBase {
  change: 'better' | 'worse' | 'same';
  p: number;
}

export interface VariantReport {
  name: string;
  runs: number;
  passes: number;
  errors: number;
  passRate: number;
  interval: [number, number];
  latency?: Latency;
  cases: CellReport[];
  /** Absent on the base. */
  vsBase?: VsBase;
}

function cell(result: CaseResult): CellReport {
  return {
    name: result.name,
    runs: result.runs,
    passes: result.passes,
    errors: result.errors,
    passRate: result.passRate,
    interval: result.interval,
    verdict: result.verdict,
    ...(result.latency ? { latency: result.latency } : {}),
  };
}

function column(name: string, result: SuiteResult): VariantReport {
  const sum = (pick: (c: CaseResult) => number): number => result.cases.reduce((total, c) => total + pick(c), 0);
  const runs = sum((c) => c.runs);
  const passes = sum((c) => c.passes);
  const durations = result.cases.flatMap((c) =>
    c.details.filter((d) => d.error === undefined).map((d) => d.durationMs),
  );
  const latency = latencyOf(durations);
  return {
    name,
    runs,
    passes,
    errors: sum((c) => c.errors),
    passRate: runs === 0 ? 0 : passes / runs,
    interval: wilsonInterval({ passes, runs }),
    ...(latency ? { latency } : {}),
    cases: result.cases.map(cell),
  };
}

/** A variant's pooled tally against the base's: better or worse only when p < ALPHA. */
export function vsBase(
  base: Pick<VariantReport, 'passes' | 'runs'>,
  variant: Pick<VariantReport, 'passes' | 'runs'>,
): VsBase {
  const p = differencePValue(variant, base);
  const rate = (t: { passes: number; runs: number }): number => (t.runs === 0 ? 0 : t.passes / t.runs);
  const change = p >= ALPHA ? 'same' : rate(variant) > rate(base) ? 'better' : 'worse';
  return { change, p };
}

/** The matrix's columns, the base first. */
export function variantReports(
  base: SuiteResult,
  variants: ReadonlyArray<{ name: string; result: SuiteResult }>,
): VariantReport[] {
  const first = column(BASE_NAME, base);
  return [
    first,
    ...variants.map(({ name, result }) => {
      const report = column(name, result);
      return { ...report, vsBase: vsBase(first, report) };
    }),
  ];
}

/** "better, p = 0.003": how every shell words a variant against the base. */
export function vsBaseText({ change, p }: VsBase): string {
  return `${change}, ${pText(p)}`;
}
