/** `plan --tests <report>…`: the trial reports whose cases make the Behaviour section of a plan's Markdown. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  BehaviourError,
  behaviourRows,
  behaviourSection,
  mergedRows,
  type BehaviourRow,
} from '../core/trials/behaviour';
import { messageOf } from '../core/text';
import { UsageError, type ArgValue } from './command';

export async function behaviourFrom(value: ArgValue, format: string, cwd: string): Promise<string[] | undefined> {
  const files = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === 'string',
  );
  if (files.length === 0) return undefined;
  if (format !== 'markdown')
    throw new UsageError('--tests adds the Behaviour section to the Markdown plan: give --format markdown with it.');
  const reports: Array<{ name: string; rows: BehaviourRow[] }> = [];
  try {
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(path.resolve(cwd, file), 'utf8');
      } catch (error) {
        throw new UsageError(
          `--tests ${file} could not be read (${messageOf(error)}); give the file test --json wrote.`,
        );
      }
      reports.push({ name: file, rows: behaviourRows(text, file) });
    }
    return behaviourSection(mergedRows(reports));
  } catch (error) {
    if (error instanceof BehaviourError) throw new UsageError(`--tests: ${error.message}.`);
    throw error;
  }
}
