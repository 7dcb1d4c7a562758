import type * as Engine from './engine';

/** The trial engine, loaded at its first use: scripts/build.mjs keeps it in dist/trials.js. */
export function trialEngine(): typeof Engine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./engine') as typeof Engine;
}
