/**
 * A suite's variant matrix as a terminal shows it (contract: "Variant lab"): a column per version of the prompt,
 * each with its pooled pass rate, interval, latency and its difference from the base, and what that difference means.
 */
import { intervalText } from '../core/prompt-tests/statistics';
import { ALPHA, vsBaseText, type VariantReport } from '../core/variants/variant-report';
import { table } from './format';

function rate({ passes, runs, errors }: Pick<VariantReport, 'passes' | 'runs' | 'errors'>): string {
  const shown = runs === 0 ? 'no answered run' : `${passes}/${runs} ${Math.round((passes / runs) * 100)}%`;
  return errors > 0 ? `${shown}; ${errors} errored` : shown;
}

export function variantLines(matrix: readonly VariantReport[]): string[] {
  const ms = (value: number | undefined): string => (value === undefined ? '-' : `${value} ms`);
  const rows = table([
    ['variant', 'pass rate', '95% interval', 'p50', 'p95', 'vs base'],
    ...matrix.map((v) => [
      v.name,
      rate(v),
      v.runs === 0 ? '-' : intervalText(v.interval),
      ms(v.latency?.p50),
      ms(v.latency?.p95),
      v.vsBase ? vsBaseText(v.vsBase) : '',
    ]),
  ]);
  const same = matrix.some((v) => v.vsBase?.change === 'same');
  return [
    "  Variants (every case on each, the suite's results above are the base's):",
    ...rows.map((row) => `    ${row}`),
    ...(same
      ? [`    "same": no difference at p < ${ALPHA} on these runs; more runs (repeat) can show one that is there.`]
      : []),
  ];
}
