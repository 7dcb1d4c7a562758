/**
 * The few file operations a tenant folder needs, behind an interface so the
 * pull, plan and push run on a real folder (extension and CLI) and on memory
 * (unit tests). Paths are relative to the folder, with `/` separators.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface FolderIO {
  /** The file's text, or undefined when there is no such file. */
  read(file: string): Promise<string | undefined>;
  write(file: string, text: string): Promise<void>;
  remove(file: string): Promise<void>;
  /** The names of the files directly in a folder; none when it does not exist. */
  list(folder: string): Promise<string[]>;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/** A folder on disk; `root` is an absolute path. */
export function diskFolder(root: string): FolderIO {
  const at = (file: string): string => path.join(root, ...file.split('/'));
  return {
    async read(file) {
      try {
        return await readFile(at(file), 'utf8');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async write(file, text) {
      await mkdir(path.dirname(at(file)), { recursive: true });
      await writeFile(at(file), text, 'utf8');
    },
    async remove(file) {
      await rm(at(file), { force: true });
    },
    async list(folder) {
      try {
        const entries = await readdir(at(folder), { withFileTypes: true });
        return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
    },
  };
}

/** A folder in memory, for tests. */
export function memoryFolder(files: Map<string, string> = new Map()): FolderIO & { files: Map<string, string> } {
  return {
    files,
    read: (file) => Promise.resolve(files.get(file)),
    write: (file, text) => {
      files.set(file, text);
      return Promise.resolve();
    },
    remove: (file) => {
      files.delete(file);
      return Promise.resolve();
    },
    list: (folder) => Promise.resolve([...files.keys()]
      .filter((file) => file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes('/'))
      .map((file) => file.slice(folder.length + 1)).sort()),
  };
}
