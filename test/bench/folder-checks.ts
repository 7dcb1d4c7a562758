// The pure checks behind the tenant-folder rows: a sample counts only when it did what its row claims (the same
// files as the first pull, the same GETs as the floor), else the bench cannot measure.
import type { LoggedRequest } from './requests';

/** A folder's files by path relative to it, `/`-separated, with their texts. */
export type FolderFiles = ReadonlyMap<string, string>;

/** How `actual` differs from `expected`, in a few words a failed run can print; undefined when it does not. */
export function filesDifference(expected: FolderFiles, actual: FolderFiles): string | undefined {
  const missing = [...expected.keys()].filter((file) => !actual.has(file));
  const extra = [...actual.keys()].filter((file) => !expected.has(file));
  const changed = [...expected.keys()].filter((file) => actual.has(file) && actual.get(file) !== expected.get(file));
  const parts = [
    missing.length > 0 ? `${missing.length} missing (${missing[0]}…)` : '',
    extra.length > 0 ? `${extra.length} extra (${extra[0]}…)` : '',
    changed.length > 0 ? `${changed.length} changed (${changed[0]}…)` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `files ${parts.join(', ')}` : undefined;
}

/** A request as one line: method, path and its query sorted, so the order the service logged it in does not matter. */
export function requestLine({ method, path, query = {} }: LoggedRequest): string {
  const search = new URLSearchParams(Object.entries(query).sort(([a], [b]) => a.localeCompare(b))).toString();
  return `${method} ${path}${search ? `?${search}` : ''}`;
}

/** How two sides' requests differ, counted as multisets (order apart); undefined when they sent the same. */
export function requestsDifference(
  candidate: readonly LoggedRequest[],
  floor: readonly LoggedRequest[],
): string | undefined {
  const counts = new Map<string, number>();
  const tally = (requests: readonly LoggedRequest[], step: number): void => {
    for (const request of requests) counts.set(requestLine(request), (counts.get(requestLine(request)) ?? 0) + step);
  };
  tally(candidate, 1);
  tally(floor, -1);
  const sentOnlyBy = (sign: number): string => {
    const lines = [...counts]
      .filter(([, count]) => Math.sign(count) === sign)
      .map(([line, count]) => `${line}${Math.abs(count) > 1 ? ` ×${Math.abs(count)}` : ''}`);
    return lines.length > 0 ? `${lines.slice(0, 3).join(', ')}${lines.length > 3 ? ', …' : ''}` : '';
  };
  const parts = [
    [sentOnlyBy(1), 'only the candidate sent'],
    [sentOnlyBy(-1), 'only the floor sent'],
  ]
    .filter(([lines]) => lines)
    .map(([lines, who]) => `${who} ${lines}`);
  return parts.length > 0 ? `${parts.join('; ')} (${candidate.length} vs ${floor.length} requests)` : undefined;
}
