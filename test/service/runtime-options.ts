/**
 * Behaviours of real services that the spec leaves open, switchable while the
 * service runs (`POST /__test/options`) so one service can serve both cases.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { badRequest } from './replies';

export interface Mimicry {
  /** `created_at` and `updated_at` in detail and list answers, not in create or update answers. */
  timestamps: boolean;
  /** The share (0 to 1) of test_prompt answers that differ, as a real model's answers vary between runs. */
  answerVariation: number;
  /** Seeds the draws of `answerVariation`, so a test that sends the same requests in the same order sees the same answers. */
  answerSeed: number;
}

const KEYS: readonly string[] = ['timestamps', 'answerVariation', 'answerSeed'] satisfies (keyof Mimicry)[];
const SHAPE = '{ timestamps?: boolean, answerVariation?: number from 0 to 1, answerSeed?: integer }';

export const DEFAULT_MIMICRY: Mimicry = { timestamps: false, answerVariation: 0, answerSeed: 1 };

/** mulberry32: a tiny seedable generator; Math.random cannot be seeded, and tests need the same draws each time. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RuntimeOptions {
  private current: Mimicry;
  private random: () => number;

  constructor(private readonly initial: Mimicry) {
    this.current = { ...initial };
    this.random = seededRandom(initial.answerSeed);
  }

  get timestamps(): boolean {
    return this.current.timestamps;
  }

  /**
   * One draw: whether the next test_prompt answer differs, at the option's rate or at `rate` (a prompt's own).
   * No draw is made while the rate is 0, so turning it on starts the sequence.
   */
  answerVaries(rate = this.current.answerVariation): boolean {
    return rate > 0 && this.random() < rate;
  }

  /** `/__test/reset` goes back to how the service was started, not to the defaults. */
  reset(): void {
    this.current = { ...this.initial };
    this.random = seededRandom(this.initial.answerSeed);
  }

  /** Unknown keys are refused: a misspelt option silently doing nothing would mislead a test. */
  apply(body: Json | undefined): void {
    if (!isJsonObject(body)) {
      throw badRequest(`body must be an object ${SHAPE}`);
    }
    const unknown = Object.keys(body).filter((key) => !KEYS.includes(key));
    if (unknown.length > 0) {
      throw badRequest(`unknown option(s): ${unknown.join(', ')}; known: ${KEYS.join(', ')}`);
    }
    const timestamps = own(body, 'timestamps');
    if (timestamps !== undefined && typeof timestamps !== 'boolean') {
      throw badRequest('timestamps must be true or false');
    }
    const variation = own(body, 'answerVariation');
    if (variation !== undefined && !isRate(variation)) {
      throw badRequest(`answerVariation must be a number from 0 to 1, got ${JSON.stringify(variation)}`);
    }
    const seed = own(body, 'answerSeed');
    if (seed !== undefined && !(typeof seed === 'number' && Number.isSafeInteger(seed))) {
      throw badRequest(`answerSeed must be an integer, got ${JSON.stringify(seed)}`);
    }
    if (typeof timestamps === 'boolean') this.current.timestamps = timestamps;
    if (typeof variation === 'number') this.current.answerVariation = variation;
    if (typeof seed === 'number') {
      this.current.answerSeed = seed;
      this.random = seededRandom(seed);
    }
  }

  toJson(): JsonObject {
    return { ...this.current };
  }
}

export function isRate(value: Json): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
