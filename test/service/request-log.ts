/** The API requests received, as tests may inspect them (never a token value). */

import type { TokenKind } from './auth';

/** A type alias, not an interface, so it stays assignable to Json. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: 'present' | 'absent';
  tokenKind: TokenKind;
};

/** Oldest entries go first once a long-running service has seen this many. */
const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RecordedRequest[] = [];

  record(entry: RecordedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
    }
  }

  list(): RecordedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
