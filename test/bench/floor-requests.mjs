// @ts-check
// What the request floors share: the build's undici subset (which the command-line tool bundles too: the same
// library, loaded at the same cost) on one pool, and four requests at a time, as the tool's connections send them.
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * @param {string} undiciFile
 * @param {string} origin
 */
export function requester(undiciFile, origin) {
  const { Agent, request } = createRequire(import.meta.url)(path.resolve(undiciFile));
  const dispatcher = new Agent();
  const headers = {
    authorization: `Bearer ${process.env.CONVAI_TOKEN}`,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  /**
   * @param {'GET' | 'PUT'} method
   * @param {string} pathAndQuery
   * @param {string} [body]
   */
  const send = async (method, pathAndQuery, body) => {
    const response = await request(new URL(pathAndQuery, origin), { method, headers, body, dispatcher });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${method} ${pathAndQuery} answered ${response.statusCode}`);
    return JSON.parse(text);
  };
  return {
    /** @param {string} pathAndQuery */
    get: (pathAndQuery) => send('GET', pathAndQuery),
    /** @param {string} pathAndQuery @param {string} body */
    put: (pathAndQuery, body) => send('PUT', pathAndQuery, body),
    close: () => dispatcher.close(),
  };
}

/**
 * @template T, R
 * @param {T[]} items
 * @param {(item: T) => Promise<R>} work
 * @returns {Promise<R[]>}
 */
export async function fourAtATime(items, work) {
  /** @type {R[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(/** @type {T} */ (items[index]));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return results;
}
