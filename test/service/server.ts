/**
 * A faithful local implementation of the Conversational AI Configuration
 * Service (shared/spec/service-api.md) for tests and `npm run service`.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, API_PREFIX } from './api';
import { identify, requirePrincipal } from './auth';
import { type Fault, faultReply, Faults } from './faults';
import { readJsonBody, writeReply } from './http-io';
import { HttpError, jsonReply, noRoute, type Reply } from './replies';
import type { Json } from '../../src/core/json';
import { type RecordedRequest, RequestLog, wrapperFields } from './request-log';
import { DEFAULT_MIMICRY, RuntimeOptions } from './runtime-options';
import type { ExtraTenants } from './sample-data';
import { Store } from './store';
import { handleTestRoute, isTestPath, type TestState } from './test-routes';

export interface ServiceOptions extends ExtraTenants {
  port?: number;
  adminToken: string;
  testMode?: boolean;
  latencyMs?: number;
  /** Faults queued from the start (the CLI's --fail-next and --drop-next). */
  faults?: readonly Fault[];
  /**
   * `created_at`/`updated_at` in detail and list answers only, as a real
   * service may add; clients must not expect them in create or update answers.
   */
  timestamps?: boolean;
  /** The share of test_prompt answers that differ, and the seed of its draws (see README "test_prompt"). */
  answerVariation?: number;
  answerSeed?: number;
}

export interface SampleTenantToken {
  id: number;
  name: string;
  token: string;
}

export interface RunningService {
  /** The base_url, e.g. http://127.0.0.1:43121 (clients append /api/v1). */
  url: string;
  port: number;
  adminToken: string;
  tenantTokens: SampleTenantToken[];
  /** The API requests received, for tests in this process to await (others read GET /__test/requests). */
  requests: RequestLog;
  /** Closes the server and every open socket, keep-alive ones too. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

export async function startService(options: ServiceOptions): Promise<RunningService> {
  if (options.adminToken.trim() === '' || /\s/.test(options.adminToken)) {
    throw new Error('adminToken must be a non-empty token without spaces');
  }
  const store = new Store({
    bulkTenants: options.bulkTenants,
    duplicateNames: options.duplicateNames,
    mapTenant: options.mapTenant,
    largeTenant: options.largeTenant,
  });
  const runtime = new RuntimeOptions({
    timestamps: options.timestamps ?? DEFAULT_MIMICRY.timestamps,
    answerVariation: options.answerVariation ?? DEFAULT_MIMICRY.answerVariation,
    answerSeed: options.answerSeed ?? DEFAULT_MIMICRY.answerSeed,
  });
  const faults = new Faults(options.latencyMs ?? 0, options.faults);
  const state: TestState = { store, faults, log: new RequestLog(), options: runtime };
  const closing = new AbortController();
  const dispatcher = new Dispatcher(state, new Api(store, runtime, closing.signal), options, closing.signal);
  const server = createServer((request, response) => {
    void dispatcher.dispatch(request, response);
  });
  const port = await listen(server, options.port ?? 0);
  let closed: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${port}`,
    port,
    adminToken: options.adminToken,
    tenantTokens: store.tenants().map((t) => ({ id: t.id, name: t.name, token: t.authToken })),
    requests: state.log,
    close: () => {
      closed ??= new Promise((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

class Dispatcher {
  constructor(
    private readonly state: TestState,
    private readonly api: Api,
    private readonly options: ServiceOptions,
    private readonly signal: AbortSignal,
  ) {}

  async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const queryStart = target.indexOf('?');
    const rawPath = queryStart < 0 ? target : target.slice(0, queryStart);
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const query = new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1));
    const readBody = () => readJsonBody(request);
    try {
      if (isTestPath(path)) {
        const reply = this.options.testMode
          ? await settle(() => handleTestRoute(this.state, method, path, readBody))
          : noRoute(method, path).toReply();
        await writeReply(response, reply, undefined, this.signal);
        return;
      }
      const identity = identify(request.headers.authorization, this.state.store, this.options.adminToken);
      const entry: RecordedRequest = {
        method,
        path,
        query: Object.fromEntries(query),
        authorization: request.headers.authorization === undefined ? 'absent' : 'present',
        tokenKind: identity.tokenKind,
        start: performance.now(),
      };
      response.once('close', () => {
        entry.end = performance.now();
      });
      this.state.log.record(entry);
      const readApiBody = async (): Promise<Json | undefined> => {
        const body = await readBody();
        const fields = wrapperFields(body);
        if (fields) entry.fields = fields;
        return body;
      };
      const fault = this.state.faults.take(`${method} ${path}`);
      if (this.state.faults.latencyMs > 0) {
        await sleep(this.state.faults.latencyMs, undefined, { signal: this.signal });
      }
      if (fault?.drop) {
        request.socket.destroy();
        return;
      }
      const reply =
        (fault && faultReply(fault)) ??
        (await settle(() => {
          if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
            throw noRoute(method, path);
          }
          return this.api.handle({ method, path, query, principal: requirePrincipal(identity), readBody: readApiBody });
        }));
      if (fault?.loseAnswer) {
        request.socket.destroy();
        return;
      }
      await writeReply(response, reply, fault?.stallBodyMs, this.signal);
    } catch (error) {
      // Only a closing service (aborted waits) or a vanished client ends up here.
      if (!this.signal.aborted) {
        response.destroy(error instanceof Error ? error : undefined);
      }
    }
  }
}

/** The handler's reply, its HttpError as a reply, or 500 for a bug (logged). */
async function settle(handler: () => Promise<Reply>): Promise<Reply> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof HttpError) {
      return error.toReply();
    }
    console.error('ConvAI local service: unexpected error', error);
    return jsonReply(500, { error: 'internal error of the local service' });
  }
}
