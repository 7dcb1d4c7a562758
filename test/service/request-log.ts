/** The API requests received, as tests may inspect them (never a token value). */

import type { TokenKind } from './auth';
import { isJsonObject, type Json } from '../../src/core/json';

/** A type alias, not an interface, so it stays assignable to Json. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: 'present' | 'absent';
  tokenKind: TokenKind;
  /**
   * The field names inside the wrapper key of a create or update body, once
   * the body is read: which fields a client sent, never their values.
   */
  fields?: string[];
};

/** The names inside `{ <wrapper key>: { … } }`; undefined for any other body. */
export function wrapperFields(body: Json | undefined): string[] | undefined {
  if (!isJsonObject(body)) return undefined;
  const keys = Object.keys(body);
  const inner = keys.length === 1 ? body[keys[0] as string] : undefined;
  return isJsonObject(inner) ? Object.keys(inner) : undefined;
}

/** Oldest entries go first once a long-running service has seen this many. */
const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RecordedRequest[] = [];
  private waiting: Array<{ count: number; matches: (entry: RecordedRequest) => boolean; resolve: () => void }> = [];

  record(entry: RecordedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
    }
    this.waiting = this.waiting.filter((waiter) => {
      if (!waiter.matches(entry) || --waiter.count > 0) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Resolves once `count` more requests that `matches` accepts have arrived: a test awaits them instead of polling or sleeping. */
  arrivals(count: number, matches: (entry: RecordedRequest) => boolean): Promise<void> {
    return new Promise((resolve) => this.waiting.push({ count, matches, resolve }));
  }

  list(): RecordedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
