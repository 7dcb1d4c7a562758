import { LIMITS } from './limits';

/** One report of a progress: the words shown, and how far (of 100) the bar moves since the report before. */
export interface CountReport {
  message: string;
  increment: number;
}

/**
 * Turns counts of done items into a progress's reports, thinned to one per LIMITS.progressReports (the last count is
 * always reported). The bar moves by what was done since the last report, by `share` of its length for the whole
 * count when one progress counts several works side by side.
 */
export function countReports(
  report: (shown: CountReport) => void,
  describe: (done: number, total: number) => string,
  share = 1,
  now: () => number = Date.now,
): (done: number, total: number) => void {
  let shownAt: number | undefined;
  let shownPercent = 0;
  return (done, total) => {
    const at = now();
    if (done < total && shownAt !== undefined && at - shownAt < LIMITS.progressReports.value) return;
    shownAt = at;
    const percent = share * (total > 0 ? (100 * Math.min(done, total)) / total : 100);
    report({ message: describe(done, total), increment: Math.max(percent - shownPercent, 0) });
    shownPercent = Math.max(percent, shownPercent);
  };
}
