/** Fault injection for tests of slow, failing and vanishing services. */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { badRequest, JSON_TYPE, type Reply } from './replies';

export interface Fault {
  /** Substring of "METHOD /path" (path without the query); absent = any API request. */
  match?: string;
  status?: number;
  body?: string;
  contentType?: string;
  /** The Retry-After header of the injected answer, e.g. "1" (seconds), as a rate-limiting service sends with 429. */
  retryAfter?: string;
  /** The Location header of the injected answer, as a moved service or a sign-in page sends with a 3xx. */
  location?: string;
  /** Destroy the socket without answering. */
  drop?: true;
  /**
   * Handle the request as usual, then destroy the socket instead of answering:
   * the change is applied but the client never learns it, as after a time-out.
   */
  loseAnswer?: true;
  /** Send the headers and part of the body, then wait this long before the rest. */
  stallBodyMs?: number;
  /** How many matching requests it applies to; default 1. */
  count?: number;
}

export interface FaultConfig {
  latencyMs?: number;
  queue: Fault[];
}

const MAX_WAIT_MS = 600_000;

export class Faults {
  private queue: { fault: Fault; remaining: number }[] = [];

  constructor(
    public latencyMs = 0,
    initial: readonly Fault[] = [],
  ) {
    this.add(initial);
  }

  add(faults: readonly Fault[]): void {
    for (const fault of faults) {
      this.queue.push({ fault, remaining: fault.count ?? 1 });
    }
  }

  clear(): void {
    this.queue = [];
    this.latencyMs = 0;
  }

  /** The first queued fault matching the request, consumed once. */
  take(requestLine: string): Fault | undefined {
    const index = this.queue.findIndex((entry) => requestLine.includes(entry.fault.match ?? ''));
    const entry = this.queue[index];
    if (!entry) {
      return undefined;
    }
    entry.remaining -= 1;
    if (entry.remaining <= 0) {
      this.queue.splice(index, 1);
    }
    return entry.fault;
  }

  pending(): number {
    return this.queue.reduce((sum, entry) => sum + entry.remaining, 0);
  }
}

/**
 * The fault's own answer; undefined when the real request is handled instead:
 * a fault that only stalls sends the real answer slowly, one that loses the
 * answer sends none.
 */
export function faultReply(fault: Fault): Reply | undefined {
  if (fault.loseAnswer || (fault.status === undefined && fault.body === undefined && fault.stallBodyMs !== undefined)) {
    return undefined;
  }
  return {
    status: fault.status ?? 500,
    body: fault.body ?? JSON.stringify({ error: 'injected fault' }),
    headers: {
      'content-type': fault.contentType ?? JSON_TYPE,
      ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
      ...(fault.location === undefined ? {} : { location: fault.location }),
    },
  };
}

/** The body of POST /__test/faults, or 400 naming what is wrong. */
export function parseFaultConfig(body: Json | undefined): FaultConfig {
  if (!isJsonObject(body)) {
    throw badRequest('body must be an object { latencyMs?, queue? }');
  }
  const latency = own(body, 'latencyMs');
  const queue = own(body, 'queue') ?? [];
  if (!Array.isArray(queue)) {
    throw badRequest('queue must be an array of faults');
  }
  return {
    latencyMs: latency === undefined ? undefined : waitMs(latency, 'latencyMs'),
    queue: queue.map((item, index) => parseFault(item, `queue[${index}]`)),
  };
}

function parseFault(value: Json, where: string): Fault {
  if (!isJsonObject(value)) {
    throw badRequest(`${where} must be an object`);
  }
  const fault: Fault = {};
  const match = text(value, 'match', where);
  if (match !== undefined) fault.match = match;
  const body = text(value, 'body', where);
  if (body !== undefined) fault.body = body;
  const contentType = text(value, 'contentType', where);
  if (contentType !== undefined) {
    if (/[\r\n]/.test(contentType)) throw badRequest(`${where}.contentType must be one line`);
    fault.contentType = contentType;
  }
  const retryAfter = text(value, 'retryAfter', where);
  if (retryAfter !== undefined) {
    if (/[\r\n]/.test(retryAfter)) throw badRequest(`${where}.retryAfter must be one line`);
    fault.retryAfter = retryAfter;
  }
  const location = text(value, 'location', where);
  if (location !== undefined) {
    if (/[\r\n]/.test(location)) throw badRequest(`${where}.location must be one line`);
    fault.location = location;
  }
  const status = integer(value, 'status', where, 200, 599);
  if (status !== undefined) fault.status = status;
  const count = integer(value, 'count', where, 1, Number.MAX_SAFE_INTEGER);
  if (count !== undefined) fault.count = count;
  const stall = own(value, 'stallBodyMs');
  if (stall !== undefined) fault.stallBodyMs = waitMs(stall, `${where}.stallBodyMs`);
  if (flag(value, 'drop', where)) fault.drop = true;
  if (flag(value, 'loseAnswer', where)) {
    // Each of these decides the answer, which a lost answer never has.
    const clashing = (
      ['drop', 'status', 'body', 'contentType', 'retryAfter', 'location', 'stallBodyMs'] as const
    ).filter((field) => fault[field] !== undefined);
    if (clashing.length > 0) throw badRequest(`${where}.loseAnswer cannot be combined with ${clashing.join(', ')}`);
    fault.loseAnswer = true;
  }
  return fault;
}

function flag(value: JsonObject, field: string, where: string): boolean {
  const found = own(value, field);
  if (found !== undefined && typeof found !== 'boolean') throw badRequest(`${where}.${field} must be true or false`);
  return found === true;
}

function text(value: JsonObject, field: string, where: string): string | undefined {
  const found = own(value, field);
  if (found !== undefined && typeof found !== 'string') {
    throw badRequest(`${where}.${field} must be a string`);
  }
  return found;
}

function integer(value: JsonObject, field: string, where: string, min: number, max: number): number | undefined {
  const found = own(value, field);
  if (found === undefined) {
    return undefined;
  }
  if (typeof found !== 'number' || !Number.isInteger(found) || found < min || found > max) {
    throw badRequest(`${where}.${field} must be an integer from ${min} to ${max}`);
  }
  return found;
}

function waitMs(value: Json, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_WAIT_MS) {
    throw badRequest(`${name} must be a number of milliseconds from 0 to ${MAX_WAIT_MS}`);
  }
  return value;
}
