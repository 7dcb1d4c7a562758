/**
 * A file stat cache, as git's index keeps one: for each resource a scan found
 * as pulled, the stats of its files then (size, times, inode). A later scan
 * stats the files and reads again only those of a resource whose stats
 * differ, so a plan of an unchanged folder costs a stat per file rather than
 * a read, parse and hash. As in git, a stat is trusted only when the file had
 * settled before it was taken: an edit within the same tick of the clock as
 * the write before it leaves the times unchanged, so a file changed within the
 * settle window of its stat is read again next time.
 */
import { hash } from 'node:crypto';
import { LIMITS } from '../limits';

/** The metadata of one file that changes whenever its content does. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  /** Set by the system on every change: `touch -r` or a copy keeping times cannot forge it. */
  readonly ctimeMs: number;
  /** A save that replaces the file (write, then rename) gives a new one. */
  readonly ino: number;
}

/** Changed with the layout of a line, so that a cache of another version is never trusted. */
const HEADER = 'convai-file-stat-cache 2';

/**
 * Whether a stat of a file with these times, taken at `takenAt`, may be trusted later: the file had not changed for a
 * settle window then, the coarse one where both times are whole seconds (a clock that coarse), else the fine one.
 */
export function settled({ mtimeMs, ctimeMs }: FileStat, takenAt: number): boolean {
  const fine = mtimeMs % 1000 !== 0 || ctimeMs % 1000 !== 0;
  const window = fine ? LIMITS.fineStatSettle.value : LIMITS.coarseStatSettle.value;
  return takenAt - Math.max(mtimeMs, ctimeMs) >= window;
}

/**
 * What the cache keeps of one resource's files' stats, in order: a hash of them all (a large folder's cache holds
 * 65,000 lines, read whole by every scan); undefined when a file has none (missing, refused).
 */
export function statsDigest(stats: ReadonlyArray<FileStat | undefined>): string | undefined {
  const texts: string[] = [];
  for (const stat of stats) {
    if (stat === undefined) return undefined;
    texts.push(`${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`);
  }
  return hash('sha1', texts.join(','), 'base64url');
}

/**
 * A resource's files as a scan found them as pulled, as one line: its JSON file, the manifest entry's hash of the
 * files (representation.ts: filesHash), the prompt text fields with a Markdown file, and the digest of the stats of
 * the JSON file and then of each part's. A later scan makes the line of what it finds and compares the two.
 */
export function cacheLine(file: string, filesHash: string, parts: readonly string[], stats: string): string {
  return `${file}\t${filesHash}\t${parts.join(',')}\t${stats}`;
}

export function cacheText(lines: readonly string[]): string {
  return `${[HEADER, ...lines].join('\n')}\n`;
}

/** The cached lines by JSON file; none from a file of another version (a cache: nothing is lost). */
export function parseCache(text: string | undefined): Map<string, string> {
  const lines = new Map<string, string>();
  if (text === undefined || !text.startsWith(`${HEADER}\n`)) return lines;
  for (const line of text.slice(HEADER.length + 1).split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) lines.set(line.slice(0, tab), line);
  }
  return lines;
}
