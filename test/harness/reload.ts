// Tests that span a window reload, for `test/integration/**/*.reload.test.ts` files. Such a file runs twice: once
// with the other tests, after which the window reloads (VS Code's own Reload Window, which saves the workbench's
// state first), and once more in the reloaded window. Each test says in which of the two it runs:
//
//   describe('editors survive a reload', () => {
//     beforeReload('opens a document', async () => { …; savePhaseData('editors.uri', uri.toString()); });
//     afterReload('finds the document open again', () => { const uri = loadPhaseData<string>('editors.uri'); … });
//   });
//
// Hooks (before, afterEach, …) run in both runs, wherever their suite has tests. The second run is a new extension
// host: nothing in memory survives, so what the second half needs goes through savePhaseData/loadPhaseData.
import * as fs from 'node:fs';
import { writeFileAtomically } from './atomic-file';
import { Phase, phaseDataFile, phaseFileVariable, readPhase } from './reload-phase';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Undefined when no reload follows (`npm run test:electron`). */
function currentPhase(): Phase | undefined {
  const phaseFile = process.env[phaseFileVariable];
  return phaseFile === undefined ? undefined : readPhase(phaseFile);
}

/** A test that runs before the window reloads. */
export function beforeReload(title: string, fn: Mocha.Func | Mocha.AsyncFunc): void {
  if (currentPhase() !== 'after-reload') it(title, fn);
}

/** A test that runs in the reloaded window. */
export function afterReload(title: string, fn: Mocha.Func | Mocha.AsyncFunc): void {
  const phase = currentPhase();
  if (phase === 'after-reload') it(title, fn);
  // Without a reload it cannot run; pending says so rather than leaving it out unseen.
  else if (phase === undefined) it(title);
}

function dataFile(): string | undefined {
  const phaseFile = process.env[phaseFileVariable];
  return phaseFile === undefined ? undefined : phaseDataFile(phaseFile);
}

function readData(file: string): Record<string, Json> {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Json>) : {};
}

/** Keeps `value` for loadPhaseData after the reload. Keys are shared by all reload tests: prefix them with the topic. */
export function savePhaseData(key: string, value: Json): void {
  const file = dataFile();
  // No reload follows, so nothing would read it.
  if (file === undefined) return;
  const data = readData(file);
  if (Object.hasOwn(data, key)) throw new Error(`phase data "${key}" is saved twice: give each test its own key`);
  writeFileAtomically(file, JSON.stringify({ ...data, [key]: value }, null, 2));
}

/** What a test before the reload saved under `key`; its type is the caller's word, as with JSON.parse. */
export function loadPhaseData<T extends Json>(key: string): T {
  const file = dataFile();
  if (file === undefined)
    throw new Error(`no phase data "${key}": ${phaseFileVariable} is not set, so no reload happened`);
  const value = readData(file)[key];
  if (value === undefined)
    throw new Error(`no phase data "${key}": the test before the reload that saves it failed or did not run`);
  return value as T;
}
