/**
 * The file operations a tenant folder needs, behind an interface so the pull,
 * plan and push run on a real folder (disk-folder.ts) and on memory
 * (memory-folder.ts). Paths are relative to the folder, with `/` separators; a
 * path `unsafePath` refuses is never read, written or removed. A few
 * capabilities are optional: a folder without them gets what the helpers here
 * make of the others.
 */
import type { FileStat } from './file-stat-cache';
import { unsafePath } from './folder-paths';

/** An entry below a folder's root: `path` relative to it, with `/` separators. */
export interface FolderEntry {
  path: string;
  type: 'file' | 'folder' | 'link' | 'other';
}

/** What reading one of many files gave: its text (as `read`), undefined when missing, or why it could not be read. */
export type ReadOutcome = string | undefined | Error;

/** A file kept outside the folder between runs; a cache, so a failed read or write loses nothing. */
export interface CacheFile {
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

export interface BatchWriter {
  /** Writes the files in order; one that cannot be written rejects with a PartialWriteError saying how many were. */
  write(files: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** Waits for the batches handed over, then lets go of what the writer holds. */
  close(): Promise<void>;
}

export interface FolderIO {
  /** The file's text without a byte-order mark, or undefined when there is no such file. */
  read(file: string): Promise<string | undefined>;
  write(file: string, text: string): Promise<void>;
  /**
   * As `write`, but whole: a reader (a file watcher's, another process's) finds the old text or the new, never a part,
   * and a stop half-way leaves the old. For the files whose every reader needs all of them (the manifest). The text
   * may come in parts, written in order, so that a large one is never held twice (its parts and their join).
   */
  replace(file: string, text: string | readonly string[]): Promise<void>;
  /** Adds `text` at the end of the file, creating it when missing: one record of a journal at a time. */
  append(file: string, text: string): Promise<void>;
  remove(file: string): Promise<void>;
  /** The names of the files directly in a folder; none when it does not exist. */
  list(folder: string): Promise<string[]>;
  /** Every entry below the root, sorted by path; dot-folders and links are listed but not looked into. */
  walk(): Promise<FolderEntry[]>;

  /** Many files' texts, as `read` gives each, in order; one that cannot be read holds its error (readAll). */
  readMany?(files: readonly string[]): Promise<ReadOutcome[]>;
  /** Each file's stat, in order; none for one missing, not a file, or refused (the file stat cache's input). */
  fileStats?(files: readonly string[]): Promise<Array<FileStat | undefined>>;
  /** Where the folder's file stat cache is kept; without it (or `fileStats`) every scan reads every file. */
  readonly statCache?: CacheFile;
  /**
   * As `read`, blocking the thread: only a folder whose every caller may wait (the command-line tool's) has it, and a
   * scan then reads the files of a resource it found unchanged only when asked for them.
   */
  readNow?(file: string): string | undefined;
  /** A batch writer whose worker writes each batch while the caller goes on (writer-worker.ts): for a large pull. */
  workerWriter?(): BatchWriter;
}

/** A path refused before any file is touched: one `unsafePath` refuses, or one through a symbolic link. */
export class UnsafePathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} ${reason}`);
    this.name = 'UnsafePathError';
  }
}

/** A batch stopped at a file that could not be written: the files before it were. */
export class PartialWriteError extends Error {
  constructor(
    readonly written: number,
    override readonly cause: Error,
  ) {
    super(cause.message);
    this.name = 'PartialWriteError';
  }
}

/** Refuses a path that `unsafePath` refuses, before anything is touched. */
export function refuseUnsafe(file: string): void {
  const reason = unsafePath(file);
  if (reason !== undefined) throw new UnsafePathError(file, reason);
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function byPath(a: FolderEntry, b: FolderEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Many files' texts in order (FolderIO.readMany), by one `read` after another where the folder has no quicker way. */
export async function readAll(io: FolderIO, files: readonly string[]): Promise<ReadOutcome[]> {
  if (io.readMany) return io.readMany(files);
  const outcomes: ReadOutcome[] = [];
  for (const file of files) outcomes.push(await io.read(file).catch(asError));
  return outcomes;
}

/** A batch writer that writes each file with `write`, in turn, each batch before its `write` settles. */
export function writerInTurn(io: Pick<FolderIO, 'write'>): BatchWriter {
  // A batch starts once the one before it has ended, so that a file two batches write holds the later one's text.
  let previous: Promise<unknown> = Promise.resolve();
  const writeBatch = async (files: readonly (readonly [string, string])[]): Promise<void> => {
    for (const [index, [file, text]] of files.entries()) {
      try {
        await io.write(file, text);
      } catch (error) {
        throw new PartialWriteError(index, asError(error));
      }
    }
  };
  return {
    write(files) {
      const batch = previous.then(() => writeBatch(files));
      previous = batch.catch(() => undefined);
      return batch;
    },
    async close() {
      await previous;
    },
  };
}
