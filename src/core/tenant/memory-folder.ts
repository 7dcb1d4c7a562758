/**
 * A tenant folder in memory: for unit tests, and for a promotion's plan,
 * which lays out a folder that is never written to disk. It holds no links
 * and has none of FolderIO's optional capabilities.
 */
import { withoutBom } from '../text';
import { byPath, refuseUnsafe, type FolderEntry, type FolderIO } from './folder-io';

export class MemoryFolder implements FolderIO {
  constructor(readonly files: Map<string, string> = new Map()) {}

  async read(file: string): Promise<string | undefined> {
    refuseUnsafe(file);
    const text = this.files.get(file);
    return text === undefined ? undefined : withoutBom(text);
  }

  async write(file: string, text: string): Promise<void> {
    refuseUnsafe(file);
    this.files.set(file, text);
  }

  async replace(file: string, text: string | readonly string[]): Promise<void> {
    await this.write(file, typeof text === 'string' ? text : text.join(''));
  }

  async append(file: string, text: string): Promise<void> {
    refuseUnsafe(file);
    this.files.set(file, `${this.files.get(file) ?? ''}${text}`);
  }

  async remove(file: string): Promise<void> {
    refuseUnsafe(file);
    this.files.delete(file);
  }

  async list(folder: string): Promise<string[]> {
    refuseUnsafe(folder);
    const prefix = `${folder}/`;
    return [...this.files.keys()]
      .filter((file) => file.startsWith(prefix) && !file.slice(prefix.length).includes('/'))
      .map((file) => file.slice(prefix.length))
      .sort();
  }

  async walk(): Promise<FolderEntry[]> {
    const entries = new Map<string, FolderEntry['type']>();
    for (const file of this.files.keys()) {
      const segments = file.split('/');
      let hidden = false;
      for (let end = 1; end < segments.length && !hidden; end++) {
        entries.set(segments.slice(0, end).join('/'), 'folder');
        hidden = segments[end - 1]?.startsWith('.') ?? false;
      }
      if (!hidden) entries.set(file, 'file');
    }
    return [...entries].map(([path, type]) => ({ path, type })).sort(byPath);
  }
}
