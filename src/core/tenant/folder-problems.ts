/**
 * A problem of a tenant folder as people and editors look for it: the file,
 * the line and column in it, and the field, so a plan's problem leads to the
 * place to fix (`ai_prompts/x.json:4:11: mode: must be one of …`).
 */
import { locate, locateKey } from '../json-document';
import { lineAndColumn } from '../text';

export interface FolderProblem {
  /** Relative to the folder, `/` separators; a folder's path ends in `/`. */
  file: string;
  /** 1-based, as editors and CI annotations count; absent for a whole file or folder. */
  line?: number;
  column?: number;
  /** Says what is wrong and, where it is about a field, starts with the field's path. */
  message: string;
}

/** `file:line:column: message`, or `file: message` when there is no place in the file. */
export function problemText(problem: FolderProblem): string {
  const at = problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`;
  return `${problem.file}${at}: ${problem.message}`;
}

const PLACED = /^(.+?):(\d+):(\d+): ([\s\S]*)$/;
const FILED = /^(.+?): ([\s\S]*)$/;

/** A problem back from its text (problemText's), for a list that opens its file at its place. */
export function problemOfText(text: string): FolderProblem {
  const placed = PLACED.exec(text);
  if (placed)
    return {
      file: placed[1] as string,
      line: Number(placed[2]),
      column: Number(placed[3]),
      message: placed[4] as string,
    };
  const filed = FILED.exec(text);
  return filed ? { file: filed[1] as string, message: filed[2] as string } : { file: '', message: text };
}

/** A problem at an offset of a file's text. */
export function problemAt(file: string, text: string, offset: number, message: string): FolderProblem {
  return { file, ...lineAndColumn(text, offset), message };
}

/**
 * A problem about the value at `path` of a JSON file (its key, for a property that should not be there); the
 * file alone when the text is not at hand.
 */
export function jsonProblem(
  file: string,
  text: string | undefined,
  path: ReadonlyArray<string | number>,
  message: string,
  at: 'value' | 'key' = 'value',
): FolderProblem {
  const range = text === undefined ? undefined : at === 'key' ? locateKey(text, path) : locate(text, path);
  return range && text !== undefined ? problemAt(file, text, range.offset, message) : { file, message };
}

/** Work refused before it touched anything, for the problems it names. */
export class FolderProblemsError extends Error {
  constructor(
    what: string,
    readonly problems: readonly FolderProblem[],
  ) {
    super(`${what}: ${problems.map(problemText).join('; ')}`);
  }
}
