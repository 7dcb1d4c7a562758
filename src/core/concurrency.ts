/** Bounded parallel work: at most `limit` calls of `work` at once, results in input order. */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * At most `limit` calls of the work given at once, the others waiting in turn: a bound on requests in flight that
 * holds however the work that makes them is scheduled.
 */
export function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot take it between.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * `fetch` for every item, at most `limit` at once, and `handle` for each answer in turn, once the event loop has
 * turned: the fetch that takes an answered one's place leaves first, so a single service is not left waiting while
 * this thread works on an answer (a pull or a drift of 1,000 resources was a third slower for it). The first failure
 * (a fetch's or a handling's) starts no more fetches and no more handling, and throws once the handling under way is
 * done, so nothing is handled after it. Results in the items' order.
 */
export async function handledInTurn<T, D, R>(
  items: readonly T[],
  limit: number,
  fetch: (item: T) => Promise<D>,
  handle: (item: T, fetched: D) => R | Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let handling: Promise<void> = Promise.resolve();
  let failed: { error: unknown } | undefined;
  const fetching = mapWithLimit(items, limit, async (item, index): Promise<void> => {
    if (failed) return;
    let fetched: D;
    try {
      fetched = await fetch(item);
    } catch (error) {
      failed ??= { error };
      throw error;
    }
    handling = handling
      .then(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        if (!failed) results[index] = await handle(item, fetched);
      })
      .catch((error: unknown) => {
        failed ??= { error };
      });
  });
  try {
    await fetching;
  } finally {
    await handling;
  }
  if (failed) throw failed.error;
  return results;
}
