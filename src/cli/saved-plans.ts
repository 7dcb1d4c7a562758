/**
 * Saved plans on the command line: `plan --out <file>` writes one, `push --plan <file>` reads one. Where the file
 * goes is checked before any request, so a plan that cannot be written costs no call to the service.
 */
import { constants } from 'node:fs';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plan } from '../core/tenant/plan';
import {
  formatSavedPlan,
  parseSavedPlan,
  savedPlanPlaceProblem,
  savePlan,
  SavedPlanError,
  type SavedPlan,
} from '../core/tenant/saved-plan';
import { messageOf } from '../core/text';
import { PROGRAM, UsageError, type ArgValue, type CliContext } from './command';
import { refuseReplacing } from './report-path';
import type { PulledFolder } from './service';

/** The --out or --plan path, resolved against the working directory; undefined when the flag is not given. */
function givenPath(value: ArgValue, flag: string, context: CliContext): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`--${flag} needs a file: --${flag} <file>.`);
  return path.resolve(context.cwd, value);
}

/** Where `plan --out` writes: a file that can be written, outside the folder or a dotfile in it. */
export async function outPath(
  value: ArgValue,
  folder: Pick<PulledFolder, 'root' | 'manifest'>,
  context: CliContext,
): Promise<string | undefined> {
  const out = givenPath(value, 'out', context);
  if (out === undefined) return undefined;
  await refuseReplacing(out, { flag: '--out', output: 'plan', example: 'plan.json' }, {}, context.cwd);
  const place = savedPlanPlaceProblem(folder.root, out, folder.manifest);
  if (place) throw new UsageError(`--out: ${place}.`);
  const parent = path.dirname(out);
  const [target, directory] = await Promise.all([
    stat(out).catch(() => undefined),
    stat(parent).catch(() => undefined),
  ]);
  if (target?.isDirectory())
    throw new UsageError(
      `--out: ${out} is a folder: give the file to write the plan to, e.g. ${path.join(out, 'plan.json')}.`,
    );
  if (!directory?.isDirectory())
    throw new UsageError(`--out: ${parent} does not exist: make that folder first, or write the plan elsewhere.`);
  try {
    await access(target ? out : parent, constants.W_OK);
  } catch {
    throw new UsageError(
      `--out: ${target ? out : parent} cannot be written (no permission): write the plan elsewhere.`,
    );
  }
  return out;
}

/** Writes the plan to `out`, or says why it was not saved; whether it was. */
export async function writeSavedPlan(
  plan: Plan,
  folder: PulledFolder,
  out: string,
  context: CliContext,
): Promise<boolean> {
  let saved: SavedPlan;
  try {
    saved = await savePlan(plan, folder.io);
  } catch (error) {
    if (!(error instanceof SavedPlanError)) throw error;
    context.err(`No plan was written to ${out}: ${error.message}`);
    return false;
  }
  await writeFile(out, formatSavedPlan(saved));
  context.err(`Saved the plan to ${out}; push exactly it with ${PROGRAM} push --plan ${out} ${folder.root}`);
  return true;
}

/**
 * The saved plan `push --plan` was given; one that cannot be read or is no saved plan of this version is a usage
 * error, one altered after it was saved (SavedPlanAltered) a refusal of the push, before any request.
 */
export async function readSavedPlan(
  value: ArgValue,
  context: CliContext,
): Promise<{ file: string; saved: SavedPlan } | undefined> {
  const file = givenPath(value, 'plan', context);
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--plan: ${file} cannot be read (${messageOf(error)}): give a file plan --out wrote.`);
  }
  try {
    return { file, saved: parseSavedPlan(text, file) };
  } catch (error) {
    if (error instanceof SavedPlanError) throw new UsageError(`--plan: ${error.message}.`);
    throw error;
  }
}
