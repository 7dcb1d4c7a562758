/**
 * A tenant folder on disk. Every path goes through the folder's path guard
 * (path-guard.ts) before it is touched. A folder the extension opens is
 * asynchronous end to end, so that a large folder never stalls the extension
 * host; the command-line tool, whose process does nothing else meanwhile,
 * opens it `blocking`: one native call per file instead of several round
 * trips to the thread pool.
 */
import { createHash } from 'node:crypto';
import { constants, lstatSync, readFileSync, writeFileSync, type Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { userCacheDir } from '../cache-dir';
import { mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { withoutBom } from '../text';
import type { FileStat } from './file-stat-cache';
import {
  asError,
  byPath,
  type BatchWriter,
  type CacheFile,
  type FolderEntry,
  type FolderIO,
  type ReadOutcome,
} from './folder-io';
import { errorCode, NO_FOLLOW, parentOf, PathGuard } from './path-guard';
import { workerWriter } from './writer-worker';

// A FIFO planted under a file's name would block a plain open for reading until something writes to it;
// non-blocking, it reads as empty (or fails) at once, and the folder's layout reports it.
const READ = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NO_FOLLOW;

/** Node's file calls take numeric open flags (O_NOFOLLOW among them); the types of some admit only strings. */
function flag(flags: number): string {
  return flags as unknown as string;
}

/**
 * Where folders' file stat caches are kept: in the cache folder (userCacheDir). Never in the folder itself, which
 * people version: a file there would show as a change of theirs.
 */
export function defaultStatCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userCacheDir(env), 'file-stat-cache');
}

/** The stat cache of the folder at `root`, one file per folder in `dir`. */
function statCacheFile(root: string, dir: string): CacheFile {
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
  /** Where the folder's file stat cache is kept (defaultStatCacheDir); null keeps none. */
  statCacheDir?: string | null;
  /** Whether file calls may block the thread: the command-line tool's may, the extension host's never do. */
  blocking?: boolean;
}

function fileStat(stats: Stats | undefined): FileStat | undefined {
  return stats?.isFile()
    ? { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino }
    : undefined;
}

export class DiskFolder implements FolderIO {
  private readonly guard: PathGuard;
  private readonly blocking: boolean;
  readonly statCache?: CacheFile;
  readonly readNow?: (file: string) => string | undefined;

  /** `root`: an absolute path, which may itself be reached through a link. */
  constructor(root: string, { statCacheDir = defaultStatCacheDir(), blocking = false }: DiskFolderOptions = {}) {
    this.guard = new PathGuard(root);
    this.blocking = blocking;
    if (statCacheDir !== null) this.statCache = statCacheFile(root, statCacheDir);
    // Only for files in folders read already (a scan's): their folders are known to be no links.
    if (blocking && NO_FOLLOW !== 0) this.readNow = (file) => this.readChecked(file, this.guard.known(file));
  }

  async read(file: string): Promise<string | undefined> {
    const target = await this.guard.openable(file);
    if (this.blocking) return this.readChecked(file, target);
    try {
      return withoutBom(await readFile(target, { encoding: 'utf8', flag: flag(READ) }));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw this.guard.linkRefused(file, error);
    }
  }

  private readChecked(file: string, target: string): string | undefined {
    try {
      return withoutBom(readFileSync(target, { encoding: 'utf8', flag: flag(READ) }));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw this.guard.linkRefused(file, error);
    }
  }

  async readMany(files: readonly string[]): Promise<ReadOutcome[]> {
    const readOne = (file: string): Promise<ReadOutcome> => this.read(file).catch(asError);
    if (!this.blocking) return mapWithLimit(files, LIMITS.folderFiles.value, readOne);
    const outcomes: ReadOutcome[] = [];
    for (const file of files) outcomes.push(await readOne(file));
    return outcomes;
  }

  /** A path the guard refuses has no stat: its resource is read, and its problem reported then. */
  async fileStats(files: readonly string[]): Promise<Array<FileStat | undefined>> {
    if (this.blocking) {
      // The folders on the way are looked at once each; then every file in one go (lstat shows a link as no file).
      for (const folder of new Set(files.map(parentOf))) await this.guard.linkFree(folder).catch(() => undefined);
      return files.map((file) => {
        try {
          return fileStat(lstatSync(this.guard.known(file), { throwIfNoEntry: false }));
        } catch {
          return undefined;
        }
      });
    }
    return mapWithLimit(files, LIMITS.folderFiles.value, async (file) => {
      const target = await this.guard.openable(file).catch(() => undefined);
      return target === undefined ? undefined : fileStat(await lstat(target).catch(() => undefined));
    });
  }

  async write(file: string, text: string): Promise<void> {
    await this.writeWith(file, text, WRITE);
  }

  async append(file: string, text: string): Promise<void> {
    await this.writeWith(file, text, APPEND);
  }

  private async writeWith(file: string, text: string, flags: number): Promise<void> {
    const target = await this.guard.writable(file);
    try {
      if (this.blocking) writeFileSync(target, text, { encoding: 'utf8', flag: flag(flags) });
      else await writeFile(target, text, { encoding: 'utf8', flag: flags });
    } catch (error) {
      throw this.guard.linkRefused(file, error);
    }
  }

  async replace(file: string, text: string | readonly string[]): Promise<void> {
    // Written beside it under a dotfile's name (which a folder may hold), then renamed over it in one step.
    const parent = parentOf(file);
    const name = file.slice(parent === '' ? 0 : parent.length + 1);
    const temporary = `${parent === '' ? '' : `${parent}/`}.${name}.${process.pid}.tmp`;
    const [first = '', ...rest] = typeof text === 'string' ? [text] : text;
    try {
      await this.write(temporary, first);
      for (const part of rest) await this.append(temporary, part);
    } catch (error) {
      await rm(this.guard.at(temporary), { force: true });
      throw error;
    }
    try {
      await rename(this.guard.at(temporary), await this.guard.openable(file));
    } catch (error) {
      await rm(this.guard.at(temporary), { force: true });
      throw this.guard.linkRefused(file, error);
    }
  }

  async remove(file: string): Promise<void> {
    await rm(await this.guard.removable(file), { force: true });
  }

  async list(folder: string): Promise<string[]> {
    try {
      const entries = await readdir(await this.guard.linkFree(folder), { withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
  }

  async walk(): Promise<FolderEntry[]> {
    const entries: FolderEntry[] = [];
    const visit = async (folder: string): Promise<void> => {
      let found;
      try {
        found = await readdir(this.guard.at(folder), { withFileTypes: true });
      } catch (error) {
        // Gone since its parent was read (or the root never was): nothing below it.
        if (errorCode(error) === 'ENOENT') return;
        throw error;
      }
      const folders: string[] = [];
      for (const entry of found) {
        const below = folder === '' ? entry.name : `${folder}/${entry.name}`;
        const type = entry.isSymbolicLink()
          ? 'link'
          : entry.isDirectory()
            ? 'folder'
            : entry.isFile()
              ? 'file'
              : 'other';
        entries.push({ path: below, type });
        if (type === 'folder' && !entry.name.startsWith('.')) folders.push(below);
      }
      await mapWithLimit(folders, LIMITS.folderWalk.value, visit);
    };
    await visit('');
    return entries.sort(byPath);
  }

  workerWriter(): BatchWriter {
    return workerWriter(
      WRITE,
      { now: (file) => this.guard.writableNow(file), checked: (file) => this.guard.writable(file) },
      (file, error) => this.guard.linkRefused(file, error),
    );
  }
}
