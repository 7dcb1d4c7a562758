/**
 * The path guard of a folder on disk: nothing below the folder is reached
 * through a symbolic link, so the folder's files cannot make a pull or push
 * read or write anything outside it. Folders on the way are looked at once
 * each (a scan reads thousands of files in a few folders); a file itself is
 * opened with O_NOFOLLOW, which refuses a link, where the system has it.
 */
import { constants } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { refuseUnsafe, UnsafePathError } from './folder-io';

/** Windows has no O_NOFOLLOW: there the final component is looked at with lstat before it is opened. */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const IS_LINK = 'is a symbolic link; a tenant folder holds no links, so nothing is read or written outside it';

export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

export function parentOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

export class PathGuard {
  /** Folders below the root found to be real folders, not links; '' is the root itself once it is known to exist. */
  private readonly realFolders = new Set<string>();

  private readonly prefix: string;

  /** `root`: an absolute path, which may itself be reached through a link: it is the folder. */
  constructor(readonly root: string) {
    this.prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  }

  /** The absolute path of a relative one; a safe path has no `..`, `.` or empty segment to normalise. */
  at(file: string): string {
    if (file === '') return this.root;
    return `${this.prefix}${path.sep === '/' ? file : file.replaceAll('/', path.sep)}`;
  }

  /** The error of a file whose open the system refused as a link (ELOOP under O_NOFOLLOW), else `error` itself. */
  linkRefused(file: string, error: unknown): unknown {
    return errorCode(error) === 'ELOOP' ? new UnsafePathError(file, IS_LINK) : error;
  }

  /** The absolute path of a file that may be opened: a safe path, no link on the way, and none at its end. */
  async openable(file: string): Promise<string> {
    refuseUnsafe(file);
    const parent = parentOf(file);
    if (!this.realFolders.has(parent)) await this.refuseLinkedFolders(parent, file);
    if (NO_FOLLOW === 0) {
      const stats = await lstat(this.at(file)).catch(() => undefined);
      if (stats?.isSymbolicLink()) throw new UnsafePathError(file, IS_LINK);
    }
    return this.at(file);
  }

  /** As `openable`, making the file's folder first when it is not known to be there. */
  async writable(file: string): Promise<string> {
    refuseUnsafe(file);
    const parent = parentOf(file);
    if (!this.realFolders.has(parent)) {
      // Checked before mkdir, which would follow a link on the way and make folders where it leads.
      await this.refuseLinkedFolders(parent, file);
      await mkdir(path.dirname(this.at(file)), { recursive: true });
      // Made or found, the root is the folder.
      if (parent === '') this.realFolders.add('');
    }
    return this.openable(file);
  }

  /**
   * As `writable`, at once, for a file whose folder was found or made already (undefined otherwise: ask `writable`):
   * a large pull hands its writer every file of the tenant, in a few folders, and a turn of the event loop for each
   * would be spent on the thread that also runs the pull's requests.
   */
  writableNow(file: string): string | undefined {
    if (NO_FOLLOW === 0 || !this.realFolders.has(parentOf(file))) return undefined;
    refuseUnsafe(file);
    return this.at(file);
  }

  /** As `openable`, at once, for a file in a folder looked at already (a scan's); one elsewhere is refused. */
  known(file: string): string {
    refuseUnsafe(file);
    const parent = parentOf(file);
    if (parent !== '' && !this.realFolders.has(parent)) {
      throw new UnsafePathError(file, 'is in a folder not looked at yet; read it with read');
    }
    return this.at(file);
  }

  /** A folder that is no link and is reached through none. */
  async linkFree(folder: string): Promise<string> {
    refuseUnsafe(folder);
    await this.refuseLinkedFolders(folder, folder);
    return this.at(folder);
  }

  /** A file that may be removed: rm takes a link itself away, never what it points to, so only its folders matter. */
  async removable(file: string): Promise<string> {
    refuseUnsafe(file);
    await this.refuseLinkedFolders(parentOf(file), file);
    return this.at(file);
  }

  /** Refuses `file` when a folder from the root down to `folder` is a link; stops where one is missing. */
  private async refuseLinkedFolders(folder: string, file: string): Promise<void> {
    let below = '';
    for (const segment of folder === '' ? [] : folder.split('/')) {
      below = below === '' ? segment : `${below}/${segment}`;
      if (this.realFolders.has(below)) continue;
      let stats;
      try {
        stats = await lstat(this.at(below));
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return;
        throw error;
      }
      if (stats.isSymbolicLink()) {
        throw new UnsafePathError(file, below === file ? IS_LINK : `goes through ${below}, which ${IS_LINK}`);
      }
      if (!stats.isDirectory()) return;
      this.realFolders.add(below);
    }
  }
}
