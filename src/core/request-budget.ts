/**
 * What a run may send and what it sent (contract: "Simulated callers", cost).
 * The client asks it before every request it sends, a retry included, so the
 * count is what the service received. Requests that run a test or write
 * (every method but GET) are held to the run's bound; reads are counted, never
 * refused.
 */

/** A read: counted, not bounded. */
function isRead(method: string): boolean {
  return method === 'GET';
}

export class RequestBudget {
  /** Every request sent: reads, operations, writes and each retry. */
  sent = 0;
  /** The requests sent that ran a test or wrote: what the bound holds. */
  spent = 0;

  /**
   * Writes kept back for the end of the run (a trial's deletes of its copies): the run's other requests may not use
   * them, so a retry that comes near the limit never leaves a copy on the service.
   */
  private reserved = 0;

  /** `limit`: the most requests that run a test or write; set before the run's first such request (unlimited until then). */
  constructor(public limit = Number.POSITIVE_INFINITY) {}

  /** Keeps `count` writes back from what the run's other requests may spend. */
  reserve(count: number): void {
    this.reserved += count;
  }

  /** Gives back writes kept back, for the requests they were kept for. */
  release(count: number): void {
    this.reserved = Math.max(0, this.reserved - count);
  }

  /** Whether one more request of `method` may be sent: asked before a retry's wait, so a refused retry waits for nothing. */
  allows(method: string): boolean {
    return isRead(method) || this.spent < this.limit - this.reserved;
  }

  /** Counts a request about to be sent; false, counting nothing, when the bound refuses it. */
  take(method: string): boolean {
    if (!this.allows(method)) return false;
    this.sent++;
    if (!isRead(method)) this.spent++;
    return true;
  }

  /** Why a request was not sent (again). */
  refusal(): string {
    return `the run has sent as many requests that run a test or write as its limit allows (${this.limit}, each retry counted)`;
  }
}
