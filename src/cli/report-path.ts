/**
 * Where `test --junit` may write, checked before anything is sent. A report
 * that would replace one of the run's own inputs is refused, and so is one
 * that cannot be written: found after the run, its exit 2 would hide the
 * run's failures, and every case would have been sent for nothing.
 *
 * What no file the tool writes may replace (an input, one of the tool's own
 * files, a symbolic link) is decided here once, for `test --junit` and
 * `plan --out` alike.
 */
import { constants, type BigIntStats } from 'node:fs';
import { access, lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { JUDGE_SUFFIX } from '../core/prompt-tests/judge-file';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import { DEFINITION_SUFFIX } from '../core/request-definition';
import { JOURNAL_FILE, MANIFEST_FILE } from '../core/tenant/manifest';
import { messageOf } from '../core/text';
import { UsageError } from './command';
import { displayName } from './suites';

/** What a run reads: the suites (absolute paths), and the flags' paths as given. */
export interface RunInputs {
  suites?: readonly string[];
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
    if (path.dirname(current) === current)
      throw new UsageError(
        `--junit ${at} cannot be written: ${current} does not exist; give --junit a path on a disk there is, e.g. --junit ${EXAMPLE}.`,
      );
    missing.unshift(path.basename(current));
  }
}

/** Which input of the run `report` is, as the message names it; undefined when it is none. */
async function inputAt(report: BigIntStats, inputs: RunInputs, cwd: string): Promise<string | undefined> {
  for (const suite of inputs.suites ?? []) {
    const stats = await statOf(suite);
    if (stats && sameFile(stats, report)) return `the suite ${displayName(suite, cwd)}`;
  }
  if (inputs.baseline === undefined) return undefined;
  const baseline = await statOf(path.resolve(cwd, inputs.baseline));
  return baseline && sameFile(baseline, report) ? `the --baseline report ${inputs.baseline}` : undefined;
}

/**
 * The files this tool reads by their name, wherever they are: replaced by a report or a plan, a folder's manifest
 * or journal would break every command on that folder (and lose an interrupted push's record), a suite its tests; a
 * new file of such a name would be read as one. Matched without case, as on a disk that ignores it.
 */
const OWN_FILES: ReadonlyArray<{ named: (name: string) => boolean; what: string }> = [
  { named: (name) => name === MANIFEST_FILE, what: `a tenant folder's manifest (${MANIFEST_FILE})` },
  { named: (name) => name === JOURNAL_FILE, what: `a tenant folder's push journal (${JOURNAL_FILE})` },
  { named: (name) => name.endsWith(SUITE_SUFFIX), what: `a prompt test suite (*${SUITE_SUFFIX})` },
  { named: (name) => name.endsWith(JUDGE_SUFFIX), what: `a judge's labelled calls (*${JUDGE_SUFFIX})` },
  { named: (name) => name.endsWith(DEFINITION_SUFFIX), what: `a request definition (*${DEFINITION_SUFFIX})` },
];

/** What this tool calls a file of that name, when it reads such files; undefined for any other name. */
function ownFile(at: string): string | undefined {
  const name = path.basename(at).toLowerCase();
  return OWN_FILES.find((own) => own.named(name))?.what;
}

/** A file the tool writes beside its output: the flag naming it, what it is, and a name to suggest. */
export interface WrittenFile {
  flag: string;
  output: string;
  example: string;
}

const JUNIT: WrittenFile = { flag: '--junit', output: 'report', example: EXAMPLE };

function refusal(file: WrittenFile, at: string, why: string, fix: string): UsageError {
  return new UsageError(`${file.flag} ${at} ${why}; nothing was sent: ${fix}.`);
}

/**
 * Refuses `at` (absolute) when writing `file` there would replace what the tool reads: an input of the run under any
 * of its names (`stats`: the file there, if any), one of the tool's own files, or a symbolic link, which would write
 * over the file it points to instead.
 */
export async function refuseReplacing(
  at: string,
  file: WrittenFile,
  inputs: RunInputs,
  cwd: string,
  stats?: BigIntStats,
): Promise<void> {
  const ownFix = `give ${file.flag} a file of its own, e.g. ${file.flag} ${file.example}`;
  const input = stats ? await inputAt(stats, inputs, cwd) : undefined;
  if (input) throw refusal(file, at, `is ${input}, which this run reads and the ${file.output} would replace`, ownFix);
  const own = ownFile(at);
  if (own) throw refusal(file, at, `is named as ${own}, a file this tool reads`, ownFix);
  const link = await lstat(at).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  if (link)
    throw refusal(
      file,
      at,
      `is a symbolic link (to ${await readlink(at)}): the ${file.output} would replace the file it points to`,
      ownFix,
    );
}

/** Whether `real` (a real path) is inside the folder `folder` names, itself or below it. */
async function isInside(real: string, folder: string, cwd: string): Promise<boolean> {
  const root = await realpath(path.resolve(cwd, folder)).catch(() => undefined);
  return (
    root !== undefined && (real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`))
  );
}

/** The report's absolute path, once it is known to be writable and none of the run's inputs. */
export async function junitPath(value: string, inputs: RunInputs, cwd: string): Promise<string> {
  if (value.trim() === '') throw new UsageError(`--junit needs a file name, e.g. --junit ${EXAMPLE}.`);
  const at = path.resolve(cwd, value);
  const refuse = (why: string, fix: string): UsageError => refusal(JUNIT, at, why, fix);
  const { existing, stats, missing } = await nearestExisting(at);
  if (missing.length === 0 && stats.isDirectory())
    throw refuse('is a folder', `give --junit a file, e.g. --junit ${path.join(value, EXAMPLE)}`);
  if (missing.length > 0 && !stats.isDirectory())
    throw refuse(
      `cannot be written: ${existing} is a file, not a folder`,
      `give --junit a path in a folder, e.g. --junit ${EXAMPLE}`,
    );
  // A report inside the pulled folder would be a file its next plan refuses, as no tenant folder holds one.
  const real = path.join(await realpath(existing), ...missing);
  if (inputs.affectedBy !== undefined && (await isInside(real, inputs.affectedBy, cwd))) {
    throw refuse(
      `is inside the tenant folder ${inputs.affectedBy} that --affected-by reads`,
      `give --junit a path outside it, e.g. --junit ${EXAMPLE}`,
    );
  }
  await refuseReplacing(at, JUNIT, inputs, cwd, missing.length === 0 ? stats : undefined);
  // A file is written in place; a missing one is created in the nearest folder there is (with the folders between).
  const mode = missing.length === 0 ? constants.W_OK : constants.W_OK | constants.X_OK;
  try {
    await access(existing, mode);
  } catch (error) {
    throw refuse(
      `cannot be written (${messageOf(error)})`,
      `give --junit a path ${missing.length === 0 ? 'to a file' : 'in a folder'} you can write to`,
    );
  }
  return at;
}
