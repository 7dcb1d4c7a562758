/**
 * The variant lab's table as the page shows it (contract: "Variant lab"): a column per version of the prompt (the
 * base, then each variant), a row per case, and every figure already in the words people read, so the page's
 * script only places text. A cell's words say its verdict as well as its colour does.
 */
import { intervalText, type Latency } from '../core/prompt-tests/statistics';
import type { Verdict } from '../core/prompt-tests/types';
import { vsBaseText, type CellReport, type VariantReport, type VsBase } from '../core/variants/variant-report';
import { BASE_NAME } from '../core/variants/variant-spec';

export interface LabCell {
  verdict: Verdict;
  /** "8/10 passed (80%)" */
  rate: string;
  /** "95% interval 49–97%" */
  interval: string;
  /** "p50 120 ms · p95 300 ms", empty when no run was answered. */
  latency: string;
  /** "2 errored" or empty. */
  errors: string;
}

export interface LabColumn extends LabCell {
  name: string;
  /** "better, p = 0.003"; absent on the base. */
  vsBase?: { change: VsBase['change']; text: string };
}

export interface LabView {
  title: string;
  /** What ran: the suite, its prompt and how the base and variants ran. */
  note: string;
  columns: LabColumn[];
  rows: Array<{ name: string; cells: LabCell[] }>;
}

function latencyText(latency: Latency | undefined): string {
  return latency ? `p50 ${Math.round(latency.p50)} ms · p95 ${Math.round(latency.p95)} ms` : '';
}

function figures(
  report: Pick<CellReport, 'runs' | 'passes' | 'errors' | 'interval' | 'latency'>,
): Omit<LabCell, 'verdict'> {
  const { runs, passes, errors } = report;
  return {
    rate: runs === 0 ? 'no answered run' : `${passes}/${runs} passed (${Math.round((passes / runs) * 100)}%)`,
    interval: runs === 0 ? '' : `95% interval ${intervalText(report.interval)}`,
    latency: latencyText(report.latency),
    errors: errors > 0 ? `${errors} errored` : '',
  };
}

/** A column's colour: how its pooled runs went, as a case's verdict would say it. */
function columnVerdict({ runs, passes, errors }: VariantReport): Verdict {
  if (runs === 0) return errors > 0 ? 'error' : 'skipped';
  return passes === runs ? (errors > 0 ? 'error' : 'pass') : passes === 0 ? 'fail' : 'flaky';
}

export function labView(title: string, note: string, reports: readonly VariantReport[]): LabView {
  const base = reports.find((r) => r.name === BASE_NAME) ?? reports[0];
  const columns = reports.map((report) => ({
    name: report.name,
    verdict: columnVerdict(report),
    ...figures(report),
    ...(report.vsBase ? { vsBase: { change: report.vsBase.change, text: vsBaseText(report.vsBase) } } : {}),
  }));
  const rows = (base?.cases ?? []).map((testCase) => ({
    name: testCase.name,
    cells: reports.map((report) => {
      const cell = report.cases.find((c) => c.name === testCase.name);
      return cell
        ? { verdict: cell.verdict, ...figures(cell) }
        : { verdict: 'skipped' as const, rate: 'not run', interval: '', latency: '', errors: '' };
    }),
  }));
  return { title, note, columns, rows };
}
