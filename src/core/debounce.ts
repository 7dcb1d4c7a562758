/**
 * The one debouncer of the checks that follow typing and of the reads that follow bursts of file changes: work for a
 * key runs once its changes have paused for the delay, a new change restarting the wait. What a save or an explicit
 * command needs runs at once instead, and cancels what was waiting.
 */
import { LIMITS } from './limits';

export class Debouncer<K = string> {
  private readonly timers = new Map<K, ReturnType<typeof setTimeout>>();

  constructor(private readonly delayMs: number = LIMITS.checkDelay.value) {}

  /** Runs `work` once `key` has had no other schedule for the delay; an earlier waiting work of the key is dropped. */
  schedule(key: K, work: () => void): void {
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        work();
      }, this.delayMs),
    );
  }

  /** Whether work of `key` is waiting: a check that runs now would be superseded by it. */
  isPending(key: K): boolean {
    return this.timers.has(key);
  }

  cancel(key: K): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }
}
