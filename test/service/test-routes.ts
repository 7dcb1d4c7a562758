/** The `/__test/` routes, present only in test mode; they need no token. */

import type { Json } from '../../src/core/json';
import { type Faults, parseFaultConfig } from './faults';
import { jsonReply, methodNotAllowed, noRoute, type Reply } from './replies';
import type { RequestLog } from './request-log';
import type { RuntimeOptions } from './runtime-options';
import type { Store } from './store';

/** Never recorded and never faulted, in test mode or not. */
export function isTestPath(path: string): boolean {
  return path === '/__test' || path.startsWith('/__test/');
}

export interface TestState {
  store: Store;
  faults: Faults;
  log: RequestLog;
  options: RuntimeOptions;
}

export async function handleTestRoute(
  state: TestState,
  method: string,
  path: string,
  readBody: () => Promise<Json | undefined>,
): Promise<Reply> {
  switch (path) {
    case '/__test/faults':
      if (method === 'POST') {
        const config = parseFaultConfig(await readBody());
        if (config.latencyMs !== undefined) {
          state.faults.latencyMs = config.latencyMs;
        }
        state.faults.add(config.queue);
        return jsonReply(200, { latencyMs: state.faults.latencyMs, pending: state.faults.pending() });
      }
      if (method === 'DELETE') {
        state.faults.clear();
        return jsonReply(200, { latencyMs: 0, pending: 0 });
      }
      throw methodNotAllowed(method, ['POST', 'DELETE']);
    case '/__test/reset':
      if (method !== 'POST') {
        throw methodNotAllowed(method, ['POST']);
      }
      state.store.reset();
      state.faults.clear();
      state.options.reset();
      return jsonReply(200, { status: 'reset' });
    case '/__test/options':
      if (method !== 'POST') {
        throw methodNotAllowed(method, ['POST']);
      }
      state.options.apply(await readBody());
      return jsonReply(200, state.options.toJson());
    case '/__test/requests':
      if (method === 'GET') {
        return jsonReply(200, state.log.list());
      }
      if (method === 'DELETE') {
        state.log.clear();
        return jsonReply(200, { status: 'cleared' });
      }
      throw methodNotAllowed(method, ['GET', 'DELETE']);
    default:
      throw noRoute(method, path);
  }
}
