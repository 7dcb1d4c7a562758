/**
 * Behaviours of real services that the spec leaves open, switchable while the
 * service runs (`POST /__test/options`) so one service can serve both cases.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { badRequest } from './replies';

export interface Mimicry {
  /** `created_at` and `updated_at` in detail and list answers, not in create or update answers. */
  timestamps: boolean;
}

const KEYS: readonly string[] = ['timestamps'] satisfies (keyof Mimicry)[];

export class RuntimeOptions {
  private current: Mimicry;

  constructor(private readonly initial: Mimicry) {
    this.current = { ...initial };
  }

  get timestamps(): boolean {
    return this.current.timestamps;
  }

  /** `/__test/reset` goes back to how the service was started, not to the defaults. */
  reset(): void {
    this.current = { ...this.initial };
  }

  /** Unknown keys are refused: a misspelt option silently doing nothing would mislead a test. */
  apply(body: Json | undefined): void {
    if (!isJsonObject(body)) {
      throw badRequest('body must be an object { timestamps?: boolean }');
    }
    const unknown = Object.keys(body).filter((key) => !KEYS.includes(key));
    if (unknown.length > 0) {
      throw badRequest(`unknown option(s): ${unknown.join(', ')}; known: ${KEYS.join(', ')}`);
    }
    const timestamps = own(body, 'timestamps');
    if (timestamps === undefined) {
      return;
    }
    if (typeof timestamps !== 'boolean') {
      throw badRequest('timestamps must be true or false');
    }
    this.current.timestamps = timestamps;
  }

  toJson(): JsonObject {
    return { ...this.current };
  }
}
