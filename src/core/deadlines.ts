/**
 * Deadlines shared by the requests that start close together. A signal costs
 * more than a small request's own work (an event target, and a timer that
 * lives until it fires), and a pull sends a thousand: requests started within
 * one slice share one signal, which fires a slice after the last of them could
 * have started plus the time-out. Each request gets its whole time-out, and
 * at most a slice more.
 */
import { setMaxListeners } from 'node:events';
import { LIMITS } from './limits';

export const SLICE_MS = LIMITS.deadlineSlice.value;

interface Shared {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** The last moment a request may start and still share the signal. */
  readonly until: number;
  /** The deadline joined with a caller's cancellation, for the requests of that caller in this slice. */
  joined?: { readonly caller: AbortSignal; readonly signal: AbortSignal };
}

export class Deadlines {
  private shared?: Shared;

  /** A signal that aborts (TimeoutError) no sooner than `timeoutMs` from `now`, and less than a slice later. */
  signal(timeoutMs: number, now = Date.now()): AbortSignal {
    const shared = this.shared;
    if (shared && shared.timeoutMs === timeoutMs && now <= shared.until && !shared.signal.aborted) return shared.signal;
    const signal = AbortSignal.timeout(timeoutMs + SLICE_MS);
    // Every request under way listens to it: many at once are no leak, each removes its listener when done.
    setMaxListeners(0, signal);
    this.shared = { signal, timeoutMs, until: now + SLICE_MS };
    return signal;
  }

  /**
   * The deadline, and the signal a request listens to: the deadline joined with the caller's cancellation when there
   * is one, shared as the deadline is (joining costs more than the deadline itself, and a pull sends 65,000).
   */
  forCall(
    caller: AbortSignal | undefined,
    timeoutMs: number,
    now = Date.now(),
  ): { deadline: AbortSignal; signal: AbortSignal } {
    const deadline = this.signal(timeoutMs, now);
    const shared = this.shared as Shared;
    if (!caller) return { deadline, signal: deadline };
    if (shared.joined?.caller !== caller) {
      const signal = AbortSignal.any([caller, deadline]);
      setMaxListeners(0, signal);
      shared.joined = { caller, signal };
    }
    return { deadline, signal: shared.joined.signal };
  }
}
