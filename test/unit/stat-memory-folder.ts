import { createHash } from 'node:crypto';
import type { FileStat } from '../../src/core/tenant/file-stat-cache';
import { refuseUnsafe, type CacheFile } from '../../src/core/tenant/folder-io';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { withoutBom } from '../../src/core/text';

/**
 * A folder in memory with the optional capabilities of one the command-line tool opens on disk: file stats (each
 * file's as of a write long settled, with its content's hash for an inode, so any edit changes them), a file stat
 * cache, and reads at once. The tests of the stat cache count what a scan or a pull reads (`reads`).
 */
export class StatMemoryFolder extends MemoryFolder {
  cacheText: string | undefined;
  readonly reads: string[] = [];
  readonly statCache: CacheFile = {
    read: async () => this.cacheText,
    write: async (text) => {
      this.cacheText = text;
    },
  };

  override async read(file: string): Promise<string | undefined> {
    this.reads.push(file);
    return super.read(file);
  }

  async fileStats(files: readonly string[]): Promise<Array<FileStat | undefined>> {
    return files.map((file) => {
      const text = this.files.get(file);
      if (text === undefined) return undefined;
      const ino = Number.parseInt(createHash('sha1').update(text).digest('hex').slice(0, 12), 16);
      return { size: text.length, mtimeMs: 0, ctimeMs: 0, ino };
    });
  }

  readNow(file: string): string | undefined {
    refuseUnsafe(file);
    const text = this.files.get(file);
    return text === undefined ? undefined : withoutBom(text);
  }
}
