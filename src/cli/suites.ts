/**
 * The suites a `test` run is given: files ending in .prompttest.json (or
 * .judgetest.json, a judge's labelled calls), or folders searched for them,
 * read and checked before any request is sent.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { JUDGE_SUFFIX } from '../core/prompt-tests/judge-file';
import { parseSuite } from '../core/prompt-tests/suite-parser';
import { SUITE_SUFFIX, type Suite, type SuiteProblem } from '../core/prompt-tests/suite';
import { UsageError } from './command';
import { readVariants } from '../core/variants/variant-files';
import type { Variant } from '../core/variants/variant-spec';
import { lineColumnText, messageOf } from '../core/text';

export interface SuiteFile {
  /** The path relative to the working directory, with forward slashes: how output and JUnit name the suite. */
  name: string;
  suite: Suite;
  /** The file's text, where a problem found later (a prompt the tenant lacks) is placed by line and column. */
  text: string;
  /** The suite's variants, their files read (contract: "Variant lab"). */
  variants?: Variant[];
}

/** Never holds suites of this project, and can be huge. */
const SKIPPED_FOLDERS = new Set(['node_modules']);

/** A path as the user reads it, the same on every system, so JUnit names stay stable across runners. */
export function displayName(file: string, cwd: string): string {
  return path.relative(cwd, file).split(path.sep).join('/');
}

async function suitesUnder(folder: string, found: Set<string>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    throw new UsageError(`The folder ${folder} could not be read (${messageOf(error)}); check its permissions.`);
  }
  for (const entry of entries) {
    const at = path.join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name))
      await suitesUnder(at, found);
    else if (entry.isFile() && testFile(entry.name)) found.add(at);
  }
}

function testFile(name: string): boolean {
  return name.endsWith(SUITE_SUFFIX) || name.endsWith(JUDGE_SUFFIX);
}

/** Every suite (and judge file) the arguments name, each once, sorted by its displayed path for a stable order. */
export async function findSuites(args: readonly string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  for (const arg of args) {
    const at = path.resolve(cwd, arg);
    const kind = await stat(at).then(
      (s) => (s.isDirectory() ? 'folder' : 'file'),
      () => 'missing',
    );
    if (kind === 'missing')
      throw new UsageError(`${arg} does not exist: give a ${SUITE_SUFFIX} file or a folder holding some.`);
    if (kind === 'folder') await suitesUnder(at, found);
    else if (testFile(at)) found.add(at);
    else
      throw new UsageError(
        `${arg} is not a prompt test suite: its name must end in ${SUITE_SUFFIX} (or ${JUDGE_SUFFIX} for a judge's labelled calls).`,
      );
  }
  if (found.size === 0)
    throw new UsageError(
      `No prompt test suite (*${SUITE_SUFFIX}) or judge file (*${JUDGE_SUFFIX}) was found in ${args.join(', ')}: give a suite file or a folder holding some.`,
    );
  return [...found].sort((a, b) => displayName(a, cwd).localeCompare(displayName(b, cwd), 'en'));
}

/**
 * A test file (a suite, a judge file) read by `parse`, or every problem that keeps it from running, each as
 * `file:line:column message`.
 */
export async function readTestFile<T>(
  file: string,
  cwd: string,
  parse: (text: string) => { value?: T; problems: ReadonlyArray<Pick<SuiteProblem, 'message' | 'range'>> },
): Promise<{ name: string; text: string; value: T } | { problems: string[] }> {
  const name = displayName(file, cwd);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { problems: [`${name}: the file could not be read (${messageOf(error)}); check its permissions.`] };
  }
  const { value, problems } = parse(text);
  if (value !== undefined && problems.length === 0) return { name, text, value };
  return { problems: problems.map((p) => `${name}:${lineColumnText(text, p.range.offset)} ${p.message}`) };
}

/** A suite ready to run, or every problem that keeps it from running. */
export async function loadSuite(file: string, cwd: string): Promise<SuiteFile | { problems: string[] }> {
  const read = await readTestFile(file, cwd, (text) => {
    const { suite, problems } = parseSuite(text);
    return { value: suite, problems };
  });
  if ('problems' in read) return read;
  const specs = read.value.variants;
  if (!specs) return { name: read.name, suite: read.value, text: read.text };
  const { variants, problems } = await readVariants(specs, (relative) =>
    readFile(path.resolve(path.dirname(file), relative), 'utf8'),
  );
  if (problems.length > 0)
    return { problems: problems.map((p) => `${read.name}:${lineColumnText(read.text, p.range.offset)} ${p.message}`) };
  return { name: read.name, suite: read.value, text: read.text, variants };
}
