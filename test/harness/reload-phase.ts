// How an integration run that spans a window reload knows where it stands. Memory does not survive the reload and
// the extension host's environment does not change across it, so a file says which phase it is. The harness names
// that file in the environment; its folder holds the other files of the two phases.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomically } from './atomic-file';

/** Names the phase file. Unset (as in `npm run test:electron`), nothing reloads. */
export const phaseFileVariable = 'CONVAI_TEST_PHASE_FILE';

/**
 * - `before-reload`: written by the harness; the test run that reads it runs every test file, then reloads when reload tests exist.
 * - `reloading`: written by that run just before it reloads the window; the next run is the one after the reload.
 * - `after-reload`: written by the run after the reload as it starts, which tells the harness the window is back.
 */
const phases = ['before-reload', 'reloading', 'after-reload'] as const;
export type Phase = (typeof phases)[number];

function isPhase(text: string): text is Phase {
  return (phases as readonly string[]).includes(text);
}

export function readPhase(phaseFile: string): Phase {
  const text = fs.readFileSync(phaseFile, 'utf8');
  if (!isPhase(text)) throw new Error(`${phaseFile} holds "${text}", not one of ${phases.join(', ')}`);
  return text;
}

export function writePhase(phaseFile: string, phase: Phase): void {
  writeFileAtomically(phaseFile, phase);
}

/** A compiled file of tests split around a reload: `*.reload.test.ts` compiles to `*.reload.test.js`. */
export function isReloadTestFile(file: string): boolean {
  return file.endsWith('.reload.test.js');
}

/** Where the run after the reload writes its results (the run before it writes to CONVAI_TEST_RESULTS). */
export function afterReloadResultsFile(phaseFile: string): string {
  return path.join(path.dirname(phaseFile), 'results-after-reload.json');
}

/** What the tests before the reload leave for the tests after it. */
export function phaseDataFile(phaseFile: string): string {
  return path.join(path.dirname(phaseFile), 'phase-data.json');
}
