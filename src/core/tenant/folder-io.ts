/**
 * The few file operations a tenant folder needs, behind an interface so the
 * pull, plan and push run on a real folder (extension and CLI) and on memory
 * (unit tests). Paths are relative to the folder, with `/` separators; a path
 * `unsafePath` refuses is never read, written or removed, and on disk nothing
 * is reached through a symbolic link, so the folder's files cannot make a
 * pull or push touch anything outside it.
 */
import { createHash } from 'node:crypto';
import { constants, lstatSync, readFileSync, writeFileSync, type Dirent } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { userCacheDir } from '../cache-dir';
import { mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { putStamp, STAMP_FIELDS, stampsOnDisk, stampTable, type FileStamp, type StampTable } from './file-stamps';
import { unsafePath } from './folder-paths';
import { PartialWriteError, startFolderThread, type FolderThread } from './folder-thread';
import { withoutBom } from '../text';

/** An entry below a folder's root: `path` relative to it, with `/` separators. */
export interface FolderEntry {
  path: string;
  type: 'file' | 'folder' | 'link' | 'other';
}

/** What reading one of many files gave: its text (as `read`), undefined when missing, or why it could not be read. */
export type ReadOutcome = string | undefined | Error;

export interface FolderIO {
  /** The file's text without a byte-order mark, or undefined when there is no such file. */
  read(file: string): Promise<string | undefined>;
  /** Many files' texts, as `read` gives each, in order; one that cannot be read holds its error, the rest are read. */
  readMany(files: readonly string[]): Promise<ReadOutcome[]>;
  write(file: string, text: string): Promise<void>;
  /**
   * As `write`, but whole: a reader (a file watcher's, another process's) finds the old text or the new, never a part,
   * and a stop half-way leaves the old. For the files whose every reader needs all of them (the manifest).
   */
  replace(file: string, text: string): Promise<void>;
  /**
   * A writer of many files a batch at a time, for a caller with more work to do meanwhile: on disk, with
   * `background`, a thread of its own writes each batch while the caller goes on (folder-thread.ts); otherwise each
   * batch is written before `write` settles. Checked as `write` checks.
   */
  batchWriter(background: boolean): BatchWriter;
  /** Adds `text` at the end of the file, creating it when missing: one record of a journal at a time. */
  append(file: string, text: string): Promise<void>;
  remove(file: string): Promise<void>;
  /** The names of the files directly in a folder; none when it does not exist. */
  list(folder: string): Promise<string[]>;
  /** Every entry below the root, sorted by path; dot-folders and links are listed but not looked into. */
  walk(): Promise<FolderEntry[]>;
  /** Each file's stamp (file-stamps.ts), in order; none (NaN) for one missing or that cannot be looked at. */
  stamps(files: readonly string[]): Promise<StampTable>;
  /** As `read`, at once: for a file whose folder this IO has looked at already (`stamps`, `readMany`). */
  readKnown(file: string): string | undefined;
  /** Where the folder's stamps are kept between runs (outside the folder); none: every scan reads every file. */
  readonly stampStore?: { read(): Promise<string | undefined>; write(text: string): Promise<void> };
}

export interface BatchWriter {
  /** Writes the files in order; one that cannot be written rejects with a PartialWriteError saying how many were. */
  write(files: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** Waits for the batches handed over, then lets go of what the writer holds. */
  close(): Promise<void>;
}

/** A batch writer that writes each file with `write`, in turn. */
function writerInTurn(io: Pick<FolderIO, 'write'>): BatchWriter {
  return {
    async write(files) {
      for (const [index, [file, text]] of files.entries()) {
        try {
          await io.write(file, text);
        } catch (error) {
          throw new PartialWriteError(index, asError(error));
        }
      }
    },
    async close() {
      // Every batch was written before its write settled.
    },
  };
}

/** A path refused before any file is touched: one `unsafePath` refuses, or one through a symbolic link. */
export class UnsafePathError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`${path} ${reason}`);
    this.name = 'UnsafePathError';
  }
}

const IS_LINK = 'is a symbolic link; a tenant folder holds no links, so nothing is read or written outside it';

function checked(file: string): void {
  const reason = unsafePath(file);
  if (reason !== undefined) throw new UnsafePathError(file, reason);
}

function byPath(a: FolderEntry, b: FolderEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

function parentOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** `readMany` by one `read` after another, for folders with no quicker way. */
async function readEach(io: Pick<FolderIO, 'read'>, files: readonly string[]): Promise<ReadOutcome[]> {
  const outcomes: ReadOutcome[] = [];
  for (const file of files) outcomes.push(await io.read(file).catch(asError));
  return outcomes;
}

// Windows has no O_NOFOLLOW (nor FIFOs); there the final component is checked with lstat before it is opened.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO planted under a file's name would block a plain open for reading until something writes to it;
// non-blocking, it reads as empty (or fails) at once, and the folder's layout reports it.
const READ = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NO_FOLLOW;

// readFileSync and writeFileSync take a path with numeric flags in one native call; their types admit only strings.
const READ_FLAG = READ as unknown as string;
const WRITE_FLAG = WRITE as unknown as string;
const APPEND_FLAG = APPEND as unknown as string;

/**
 * Where folders' stamps are kept: in the cache folder (userCacheDir). Never in the folder itself, which people
 * version: a file there would show as a change of theirs.
 */
export function defaultStampsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userCacheDir(env), 'folder-stamps');
}

/** The stamps of the folder at `root`, one file per folder in `dir`; a cache, so a failed read or write is no error. */
function stampStore(root: string, dir: string): NonNullable<FolderIO['stampStore']> {
  const file = path.join(dir, `${createHash('sha1').update(path.resolve(root)).digest('hex')}.txt`);
  return {
    read: () => readFile(file, 'utf8').catch(() => undefined),
    async write(text) {
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(file, text);
      } catch {
        // Next time the folder's files are read instead.
      }
    },
  };
}

export interface DiskFolderOptions {
  /** Where the folder's stamps are kept (defaultStampsDir); null keeps none. */
  stampsDir?: string | null;
  /**
   * Folders (relative, '' the root) whose listings the first walk will want, listed from now on the thread pool: a
   * command that reads the manifest before it walks a folder of 50,000 prompts then waits for neither alone. Any write
   * before that walk drops them.
   */
  readAhead?: readonly string[];
}

type Listing = Awaited<ReturnType<typeof listFolder>>;

/** A folder's entries, or an error (kept, not thrown, so that a listing read ahead and never used rejects nothing). */
function listFolder(folder: string): Promise<Dirent[] | Error> {
  return readdir(folder, { withFileTypes: true }).catch(asError);
}

/** A folder on disk; `root` is an absolute path, and may itself be reached through a link. */
export function diskFolder(root: string, { stampsDir = defaultStampsDir(), readAhead = [] }: DiskFolderOptions = {}): FolderIO {
  // A checked path has no `..`, `.` or empty segment, so joining needs no normalising where `/` is the separator.
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  const at = path.sep === '/' ? (file: string): string => (file === '' ? root : `${prefix}${file}`) : (file: string): string => path.join(root, ...file.split('/'));
  // Folders found to be real folders, not links; lstat once each for the IO's lifetime keeps a scan of many files fast.
  const realFolders = new Set<string>();
  let ahead: Map<string, Promise<Listing>> | undefined = readAhead.length === 0 ? undefined
    : new Map(readAhead.filter((folder) => unsafePath(folder) === undefined || folder === '').map((folder) => [folder, listFolder(at(folder))]));

  /** Refuses `file` when a folder from the root down to `folder` is a link; stops where one is missing. */
  const refuseLinkedFolders = async (folder: string, file: string): Promise<void> => {
    let below = '';
    for (const segment of folder === '' ? [] : folder.split('/')) {
      below = below === '' ? segment : `${below}/${segment}`;
      if (realFolders.has(below)) continue;
      let stats;
      try {
        stats = await lstat(at(below));
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return;
        throw error;
      }
      if (stats.isSymbolicLink()) throw new UnsafePathError(file, below === file ? IS_LINK : `goes through ${below}, which ${IS_LINK}`);
      if (!stats.isDirectory()) return;
      realFolders.add(below);
    }
  };

  /** Whether a file in `parent` needs no look at the disk for links: the folder is known real, and opens refuse links. */
  const linkFree = (parent: string): boolean => realFolders.has(parent) && NO_FOLLOW !== 0;

  /** Refuses a path that names a link, or reaches its file through one. */
  const refuseLinksAsync = async (file: string, parent: string): Promise<void> => {
    if (!realFolders.has(parent)) await refuseLinkedFolders(parent, file);
    if (NO_FOLLOW === 0) {
      const stats = await lstat(at(file)).catch(() => undefined);
      if (stats?.isSymbolicLink()) throw new UnsafePathError(file, IS_LINK);
    }
  };
  /** As refuseLinksAsync, but nothing to wait for in the common case (a known folder, O_NOFOLLOW): a scan reads thousands. */
  const refuseLinks = (file: string): Promise<void> | undefined => {
    checked(file);
    const parent = parentOf(file);
    return linkFree(parent) ? undefined : refuseLinksAsync(file, parent);
  };

  const linkRefused = (file: string, error: unknown): unknown => (errorCode(error) === 'ELOOP' ? new UnsafePathError(file, IS_LINK) : error);

  /** A file of a checked path below a folder found real: one native call, no wait. */
  const readNow = (file: string): string | undefined => {
    try {
      // Synchronous on purpose: a folder's files are small, and one call reads one where the promise API needs
      // four round trips to the thread pool (open, stat, read, close), which made a plan of 1,000 prompts 4 times
      // slower than reading its files plainly.
      return withoutBom(readFileSync(at(file), { encoding: 'utf8', flag: READ_FLAG }));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw linkRefused(file, error);
    }
  };

  /** A file's path on disk when it may be stamped (as read would take it); '' when it may not, so it has no stamp. */
  const checkedTarget = async (file: string): Promise<string> => {
    try {
      const checking = refuseLinks(file);
      if (checking) await checking;
      return at(file);
    } catch {
      return '';
    }
  };

  /**
   * A file's path on disk at once when nothing needs waiting for (a known folder, O_NOFOLLOW), else undefined: a pull
   * stamps and writes 165,000 files, and a wait for each cost it as much as its folder checks.
   */
  const knownTarget = (file: string): string | undefined => (unsafePath(file) === undefined && linkFree(parentOf(file)) ? at(file) : undefined);

  /** Checks a file about to be written and makes its folder; its path on disk. */
  const writable = async (file: string): Promise<string> => {
    ahead = undefined;
    const checking = refuseLinks(file);
    if (checking) await checking;
    const parent = parentOf(file);
    // A folder known to be there (and no link) needs no mkdir: a pull writes thousands of files into a few folders.
    if (!realFolders.has(parent)) {
      await mkdir(path.dirname(at(file)), { recursive: true });
      await refuseLinkedFolders(parent, file);
      // The root itself ('' here) may be reached through a link; made or found, it is the folder.
      if (parent === '') realFolders.add('');
    }
    return at(file);
  };

  const writeWith = async (file: string, text: string, flag: string): Promise<void> => {
    ahead = undefined;
    const target = knownTarget(file) ?? (await writable(file));
    try {
      writeFileSync(target, text, { encoding: 'utf8', flag });
    } catch (error) {
      throw linkRefused(file, error);
    }
  };

  /** The batch writer whose thread writes what this folder checked. */
  const writerInThread = (): BatchWriter => {
    // Started by the first batch with files: a pull into an unchanged folder writes none.
    let thread: FolderThread | undefined;
    return {
      async write(files) {
        if (files.length === 0) return;
        const targets: Array<readonly [string, string]> = [];
        let refused: PartialWriteError | undefined;
        ahead = undefined;
        for (const [file, text] of files) {
          try {
            targets.push([knownTarget(file) ?? (await writable(file)), text]);
          } catch (error) {
            // What comes before it is written all the same, as one write after another would have.
            refused = new PartialWriteError(targets.length, asError(error));
            break;
          }
        }
        thread ??= startFolderThread(WRITE);
        const outcome = await thread.write(targets);
        if (outcome.error) {
          const failed = files[outcome.written]?.[0] ?? '';
          throw new PartialWriteError(outcome.written, asError(linkRefused(failed, Object.assign(new Error(outcome.error.message), { code: outcome.error.code }))));
        }
        if (refused) throw refused;
      },
      close: async () => thread?.close(),
    };
  };

  /** A file below a folder this IO looked at; one elsewhere is looked at first, at once. */
  const knownPath = (file: string): string => {
    checked(file);
    const parent = parentOf(file);
    // The root may be reached through a link: it is the folder.
    if (parent !== '' && !realFolders.has(parent)) throw new UnsafePathError(file, 'is in a folder not looked at yet; read it with read or readMany');
    if (NO_FOLLOW === 0 && lstatSync(at(file), { throwIfNoEntry: false })?.isSymbolicLink()) throw new UnsafePathError(file, IS_LINK);
    return file;
  };

  const io: FolderIO = {
    ...(stampsDir === null ? {} : { stampStore: stampStore(root, stampsDir) }),
    readKnown(file) {
      return readNow(knownPath(file));
    },
    async stamps(files) {
      const targets: string[] = [];
      for (const file of files) targets.push(knownTarget(file) ?? (await checkedTarget(file)));
      // Many files: the second half is stamped by a thread while this one stamps the first (the disk answers both).
      if (targets.length < LIMITS.sharedStamps.value) return stampsOnDisk(targets);
      const half = Math.floor(targets.length / 2);
      const thread = startFolderThread(WRITE);
      try {
        const theirs = thread.stat(targets.slice(half));
        const stamps = stampTable(targets.length);
        stamps.set(stampsOnDisk(targets.slice(0, half)));
        stamps.set(await theirs, half * STAMP_FIELDS);
        return stamps;
      } finally {
        await thread.close();
      }
    },
    async read(file) {
      const checking = refuseLinks(file);
      if (checking) await checking;
      return readNow(file);
    },
    async readMany(files) {
      // Each folder on the way is checked once, then the files are read in one run: a scan reads thousands.
      if (NO_FOLLOW === 0) return readEach(io, files);
      const outcomes: ReadOutcome[] = [];
      for (const file of files) {
        try {
          const checking = refuseLinks(file);
          if (checking) await checking;
          outcomes.push(readNow(file));
        } catch (error) {
          outcomes.push(asError(error));
        }
      }
      return outcomes;
    },
    write(file, text) {
      return writeWith(file, text, WRITE_FLAG);
    },
    batchWriter(background) {
      return background ? writerInThread() : writerInTurn(io);
    },
    append(file, text) {
      return writeWith(file, text, APPEND_FLAG);
    },
    async replace(file, text) {
      // Written beside it under a dotfile's name (which a folder may hold), then renamed over it in one step.
      const parent = parentOf(file);
      const name = file.slice(parent === '' ? 0 : parent.length + 1);
      const temporary = `${parent === '' ? '' : `${parent}/`}.${name}.${process.pid}.tmp`;
      await writeWith(temporary, text, WRITE_FLAG);
      try {
        await rename(at(temporary), at(file));
      } catch (error) {
        await rm(at(temporary), { force: true });
        throw linkRefused(file, error);
      }
    },
    async remove(file) {
      // rm takes a link itself away, never what it points to; only a linked folder on the way could lead outside.
      checked(file);
      ahead = undefined;
      await refuseLinkedFolders(parentOf(file), file);
      await rm(at(file), { force: true });
    },
    async list(folder) {
      checked(folder);
      await refuseLinkedFolders(folder, folder);
      try {
        const entries = await readdir(at(folder), { withFileTypes: true });
        return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return [];
        throw error;
      }
    },
    async walk() {
      const entries: FolderEntry[] = [];
      const listed = ahead;
      ahead = undefined;
      const visit = async (folder: string): Promise<void> => {
        const found = await (listed?.get(folder) ?? listFolder(at(folder)));
        if (found instanceof Error) {
          // Gone since its parent was read (or the root never was): nothing below it.
          if (errorCode(found) === 'ENOENT') return;
          throw found;
        }
        // Thousands of files to one folder or two: only the folders below are visited, a few at a time.
        const folders: string[] = [];
        for (const entry of found) {
          const below = folder === '' ? entry.name : `${folder}/${entry.name}`;
          const type = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
          entries.push({ path: below, type });
          if (type === 'folder' && !entry.name.startsWith('.')) folders.push(below);
        }
        await mapWithLimit(folders, LIMITS.folderWalk.value, visit);
      };
      await visit('');
      return entries.sort(byPath);
    },
  };
  return io;
}

/** A stamp of a text in memory: its length, and a hash of it where a disk has the time and the inode. */
function memoryStamp(text: string): FileStamp {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return { size: text.length, mtimeMs: 0, ctimeMs: 0, ino: hash >>> 0 };
}

/** A folder in memory, for tests; it holds no links. Its stamps are kept in `stampsFile`. */
export function memoryFolder(files: Map<string, string> = new Map()): FolderIO & { files: Map<string, string>; stampsFile?: string } {
  const folder: FolderIO & { files: Map<string, string>; stampsFile?: string } = {
    files,
    stampStore: {
      read: async () => folder.stampsFile,
      async write(text) {
        folder.stampsFile = text;
      },
    },
    readKnown(file) {
      checked(file);
      const text = files.get(file);
      return text === undefined ? undefined : withoutBom(text);
    },
    async stamps(many) {
      const stamps = stampTable(many.length);
      for (const [index, file] of many.entries()) {
        const text = files.get(file);
        if (text !== undefined) putStamp(stamps, index, memoryStamp(text));
      }
      return stamps;
    },
    async read(file) {
      checked(file);
      const text = files.get(file);
      return text === undefined ? undefined : withoutBom(text);
    },
    readMany(many) {
      return readEach(folder, many);
    },
    async write(file, text) {
      checked(file);
      files.set(file, text);
    },
    batchWriter() {
      return writerInTurn(folder);
    },
    async append(file, text) {
      checked(file);
      files.set(file, `${files.get(file) ?? ''}${text}`);
    },
    replace(file, text) {
      return folder.write(file, text);
    },
    async remove(file) {
      checked(file);
      files.delete(file);
    },
    async list(folder) {
      checked(folder);
      return [...files.keys()]
        .filter((file) => file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes('/'))
        .map((file) => file.slice(folder.length + 1)).sort();
    },
    async walk() {
      const entries = new Map<string, FolderEntry['type']>();
      for (const file of files.keys()) {
        const segments = file.split('/');
        let hidden = false;
        for (let end = 1; end < segments.length && !hidden; end++) {
          entries.set(segments.slice(0, end).join('/'), 'folder');
          hidden = segments[end - 1]?.startsWith('.') ?? false;
        }
        if (!hidden) entries.set(file, 'file');
      }
      return [...entries].map(([entry, type]) => ({ path: entry, type })).sort(byPath);
    },
  };
  return folder;
}
