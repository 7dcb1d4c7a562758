import type { ServiceBase } from '../core/service-base';

/**
 * What the file system provider knows of each document: the text VS Code was
 * last given (with an mtime that changes exactly when that text does) and the
 * service version it came from, parsed once (core/service-base.ts): the base of
 * the checks while typing and of the conflict check before a save.
 */
export interface DocumentState {
  /** The text `stat` describes: what VS Code has on "disk". */
  text: string;
  mtime: number;
  ctime: number;
  /** The service's object the editor's content is based on. */
  base: ServiceBase;
  fetchedAt: number;
}

export class DocumentStore {
  private readonly states = new Map<string, DocumentState>();

  get(key: string): DocumentState | undefined {
    return this.states.get(key);
  }

  /** Records text for a URI, moving mtime forward only when the text changed. */
  put(key: string, text: string, base: ServiceBase, now = Date.now()): DocumentState {
    const previous = this.states.get(key);
    const changed = !previous || previous.text !== text;
    const state: DocumentState = {
      text,
      base,
      ctime: previous?.ctime ?? now,
      mtime: changed ? Math.max(now, (previous?.mtime ?? 0) + 1) : (previous?.mtime ?? now),
      fetchedAt: now,
    };
    this.states.set(key, state);
    return state;
  }

  delete(key: string): void {
    this.states.delete(key);
  }
}
