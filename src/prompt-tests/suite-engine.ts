import type * as Engine from '../core/prompt-tests/run';

/**
 * The suite engine (src/core/prompt-tests/run.ts, with its conversations and simulated calls), loaded at the first
 * run: scripts/build.mjs keeps it in dist/suite-engine.js, as editing a suite never needs it.
 */
export function suiteEngine(): typeof Engine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../core/prompt-tests/run') as typeof Engine;
}
