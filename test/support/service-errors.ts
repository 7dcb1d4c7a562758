import * as assert from 'node:assert/strict';
import type * as http from 'node:http';
import { ServiceError } from '../../src/core/errors';

/** The ServiceError a call rejects with; fails the test when it resolves or rejects otherwise. */
export async function serviceRejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

/** Answers a loopback test server's request with JSON. */
export function json(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
