/**
 * Where `test --junit` may write, checked before anything is sent. A report
 * that would replace one of the run's own inputs is refused, and so is one
 * that cannot be written: found after the run, its exit 2 would hide the
 * run's failures, and every case would have been sent for nothing.
 */
import { constants, type BigIntStats } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { messageOf } from '../core/text';
import { UsageError } from './command';
import { displayName } from './suites';

/** What a run reads: the suites (absolute paths), and the flags' paths as given. */
export interface RunInputs {
  suites: readonly string[];
  baseline?: string;
  /** The pulled tenant folder of --affected-by. */
  affectedBy?: string;
}

const EXAMPLE = 'prompt-tests.xml';

async function statOf(at: string): Promise<BigIntStats | undefined> {
  return stat(at, { bigint: true }).catch(() => undefined);
}

/** One file under two paths: links, `./a` and `a`, another case of a name on a case-insensitive disk. */
function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The deepest path on the way to `at` that exists, and the names after it that do not. */
async function nearestExisting(at: string): Promise<{ existing: string; stats: BigIntStats; missing: string[] }> {
  const missing: string[] = [];
  for (let current = at; ; current = path.dirname(current)) {
    const stats = await statOf(current);
    if (stats) return { existing: current, stats, missing };
    // The root always exists; a path whose root does not (a drive not there) cannot be written.
    if (path.dirname(current) === current) throw new UsageError(`--junit ${at} cannot be written: ${current} does not exist; give --junit a path on a disk there is, e.g. --junit ${EXAMPLE}.`);
    missing.unshift(path.basename(current));
  }
}

/** Which input of the run `report` is, as the message names it; undefined when it is none. */
async function inputAt(report: BigIntStats, inputs: RunInputs, cwd: string): Promise<string | undefined> {
  for (const suite of inputs.suites) {
    const stats = await statOf(suite);
    if (stats && sameFile(stats, report)) return `the suite ${displayName(suite, cwd)}`;
  }
  if (inputs.baseline === undefined) return undefined;
  const baseline = await statOf(path.resolve(cwd, inputs.baseline));
  return baseline && sameFile(baseline, report) ? `the --baseline report ${inputs.baseline}` : undefined;
}

/** Whether `real` (a real path) is inside the folder `folder` names, itself or below it. */
async function isInside(real: string, folder: string, cwd: string): Promise<boolean> {
  const root = await realpath(path.resolve(cwd, folder)).catch(() => undefined);
  return root !== undefined && (real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`));
}

/** The report's absolute path, once it is known to be writable and none of the run's inputs. */
export async function junitPath(value: string, inputs: RunInputs, cwd: string): Promise<string> {
  if (value.trim() === '') throw new UsageError(`--junit needs a file name, e.g. --junit ${EXAMPLE}.`);
  const at = path.resolve(cwd, value);
  const refuse = (why: string, fix: string): UsageError => new UsageError(`--junit ${at} ${why}; nothing was sent: ${fix}.`);
  const { existing, stats, missing } = await nearestExisting(at);
  if (missing.length === 0 && stats.isDirectory()) throw refuse('is a folder', `give --junit a file, e.g. --junit ${path.join(value, EXAMPLE)}`);
  if (missing.length > 0 && !stats.isDirectory()) throw refuse(`cannot be written: ${existing} is a file, not a folder`, `give --junit a path in a folder, e.g. --junit ${EXAMPLE}`);
  const input = missing.length === 0 ? await inputAt(stats, inputs, cwd) : undefined;
  if (input) throw refuse(`is ${input}, which this run reads and the report would replace`, `give --junit a file of its own, e.g. --junit ${EXAMPLE}`);
  // A report inside the pulled folder would be a file its next plan refuses, as no tenant folder holds one.
  const real = path.join(await realpath(existing), ...missing);
  if (inputs.affectedBy !== undefined && await isInside(real, inputs.affectedBy, cwd)) {
    throw refuse(`is inside the tenant folder ${inputs.affectedBy} that --affected-by reads`, `give --junit a path outside it, e.g. --junit ${EXAMPLE}`);
  }
  // A file is written in place; a missing one is created in the nearest folder there is (with the folders between).
  const mode = missing.length === 0 ? constants.W_OK : constants.W_OK | constants.X_OK;
  try {
    await access(existing, mode);
  } catch (error) {
    throw refuse(`cannot be written (${messageOf(error)})`, `give --junit a path ${missing.length === 0 ? 'to a file' : 'in a folder'} you can write to`);
  }
  return at;
}
