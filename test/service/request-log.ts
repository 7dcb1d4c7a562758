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
  /** When the request arrived and when its answer was written (or its connection closed), in ms of the service's clock. */
  start: number;
  end?: number;
};

/**
 * The most requests the service was answering at once: each counts from its arrival to its answer (one still
 * unanswered, to the end). Answers go before arrivals at the same instant, as one ended before the next began.
 */
export function mostInFlight(entries: ReadonlyArray<Pick<RecordedRequest, 'start' | 'end'>>): number {
  const events = entries
    .flatMap((e) => [
      { at: e.start, step: 1 },
      { at: e.end ?? Number.POSITIVE_INFINITY, step: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let current = 0;
  let most = 0;
  for (const { step } of events) {
    current += step;
    most = Math.max(most, current);
  }
  return most;
}

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
