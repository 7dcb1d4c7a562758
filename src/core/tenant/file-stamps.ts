/**
 * What a file's metadata says about its content, kept between runs: a
 * resource whose files carry the stamps they had when a scan last found them
 * as pulled is as pulled still, and is not read. A plan of an unchanged folder
 * of 50,000 prompts then costs a stat of each file instead of a read, parse
 * and hash. As Git's index does, a stamp is trusted only when the file had
 * settled before it was taken: an edit in the same tick of the clock as the
 * write before it leaves the time unchanged, so a file changed less than
 * `SETTLED_MS` before its stamp is read again next time.
 */
import { lstatSync } from 'node:fs';

/** The metadata of one file that changes whenever its content does. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** Set by the system on every change: `touch -r` or a copy keeping times cannot forge it. */
  ctimeMs: number;
  /** A save that replaces the file (write, then rename) gives a new one. */
  ino: number;
}

/** The coarsest clock of common file systems (FAT's two seconds), with room for a network share's. */
export const SETTLED_MS = 3_000;

/**
 * A clock finer than a second (ext4, APFS, NTFS and most shares keep fractions) still moves in ticks of the system's
 * timer, at most Windows' 15.6 ms: a stamp taken this long after the file's change lies in a later tick.
 */
export const FINE_SETTLED_MS = 100;

const HEADER = 'convai-folder-stamps 3';

/** One 32-bit step of MurmurHash3's mixing. */
function mixed(hash: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  const h = hash ^ k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

const TWO_32 = 0x1_0000_0000;

/**
 * The stamps of a resource's files as one short text: two 32-bit lanes over every number of every stamp (times in
 * whole microseconds), so that a scan of 165,000 files makes a text per resource instead of four per file. A change
 * of any stamp changes it but with a chance of one in 2^64, which is no weaker than a file's own hash.
 */
export class StampDigest {
  private low = 0x2f0b_3c1d;
  private high = 0x5bd1_e995;

  add(size: number, mtimeMs: number, ctimeMs: number, ino: number): void {
    this.number(size);
    this.number(Math.round(mtimeMs * 1000));
    this.number(Math.round(ctimeMs * 1000));
    this.number(ino);
  }

  private number(value: number): void {
    const low = value % TWO_32;
    const high = (value - low) / TWO_32;
    this.low = mixed(mixed(this.low, low), high);
    this.high = mixed(mixed(this.high, high ^ 0x6a09_e667), low);
  }

  text(): string {
    return `${(this.low >>> 0).toString(36)}.${(this.high >>> 0).toString(36)}`;
  }
}

/**
 * The stamps of many files in one array, STAMP_FIELDS numbers a file (size, mtimeMs, ctimeMs, ino), NaN for a file
 * with none: a scan of 165,000 files then keeps no object per file for the collector to move.
 */
export type StampTable = Float64Array;
export const STAMP_FIELDS = 4;

export function stampTable(files: number): StampTable {
  return new Float64Array(files * STAMP_FIELDS).fill(Number.NaN);
}

export function putStamp(table: StampTable, index: number, { size, mtimeMs, ctimeMs, ino }: FileStamp): void {
  const at = index * STAMP_FIELDS;
  table[at] = size;
  table[at + 1] = mtimeMs;
  table[at + 2] = ctimeMs;
  table[at + 3] = ino;
}

/** The stamps of files on disk by their absolute paths: none for a path left empty (refused), missing, or not a file. */
export function stampsOnDisk(paths: readonly string[]): StampTable {
  const stamps = stampTable(paths.length);
  for (let index = 0; index < paths.length; index++) {
    const file = paths[index] as string;
    if (file === '') continue;
    try {
      const stats = lstatSync(file, { throwIfNoEntry: false });
      if (stats?.isFile()) putStamp(stamps, index, stats);
    } catch {
      // No stamp: the file is read.
    }
  }
  return stamps;
}

/**
 * Whether a stamp of a file with these times, taken at `takenAt`, may be trusted later: the file had not changed for a
 * while then, a while being SETTLED_MS where both times are whole seconds (a clock that coarse) and FINE_SETTLED_MS
 * otherwise.
 */
export function settled(mtimeMs: number, ctimeMs: number, takenAt: number): boolean {
  const fine = mtimeMs % 1000 !== 0 || ctimeMs % 1000 !== 0;
  return takenAt - Math.max(mtimeMs, ctimeMs) >= (fine ? FINE_SETTLED_MS : SETTLED_MS);
}

/**
 * The digest of `count` stamps from the `at`th (a resource's files: its JSON file, then its parts in
 * PROMPT_TEXT_FIELDS order), and whether every one had settled by `takenAt`; undefined when a file had no stamp.
 */
export function digestOf(stamps: StampTable, at: number, count: number, takenAt: number): { digest: string; settled: boolean } | undefined {
  const digest = new StampDigest();
  let allSettled = true;
  for (let offset = at * STAMP_FIELDS; offset < (at + count) * STAMP_FIELDS; offset += STAMP_FIELDS) {
    const size = stamps[offset] ?? Number.NaN;
    const mtimeMs = stamps[offset + 1] ?? 0;
    const ctimeMs = stamps[offset + 2] ?? 0;
    const ino = stamps[offset + 3] ?? 0;
    if (Number.isNaN(size)) return undefined;
    digest.add(size, mtimeMs, ctimeMs, ino);
    allSettled &&= settled(mtimeMs, ctimeMs, takenAt);
  }
  return { digest: digest.text(), settled: allSettled };
}

/**
 * A resource's files as a scan found them as pulled, as one line: its JSON file, the manifest entry's hash of the
 * files (representation.ts: filesHash), the prompt text fields with a Markdown file, and the digest of the stamps of
 * the JSON file and then of each part's. A later scan makes the line of what it finds and compares: no field is parsed.
 */
export function recordLine(file: string, filesHash: string, parts: readonly string[], digest: string): string {
  return `${file}\t${filesHash}\t${parts.join(',')}\t${digest}`;
}

const TAB = 9;
const COMMA = 44;

/** Whether a kept line (recordLine) of `file` records these files, compared in place: no line is made. */
export function lineRecords(line: string, file: string, filesHash: string, parts: readonly string[], digest: string): boolean {
  let at = file.length + 1;
  if (!line.startsWith(filesHash, at)) return false;
  at += filesHash.length;
  if (line.charCodeAt(at++) !== TAB) return false;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (index > 0 && line.charCodeAt(at++) !== COMMA) return false;
    if (!line.startsWith(part, at)) return false;
    at += part.length;
  }
  return line.charCodeAt(at) === TAB && line.length === at + 1 + digest.length && line.endsWith(digest);
}

export function stampsText(lines: readonly string[]): string {
  return `${[HEADER, ...lines].join('\n')}\n`;
}

/** The kept lines by JSON file; none from a file of another version (a cache: nothing is lost). */
export function parseStamps(text: string | undefined): Map<string, string> {
  const lines = new Map<string, string>();
  if (text === undefined || !text.startsWith(`${HEADER}\n`)) return lines;
  for (const line of text.slice(HEADER.length + 1).split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) lines.set(line.slice(0, tab), line);
  }
  return lines;
}
