/**
 * A `.judgetest.json` file (contract: "Judge calibration"): calls people
 * labelled pass or fail for one judge prompt, read from JSON with comments,
 * every problem named with its place so the editor can mark it.
 */
import { findNodeAtLocation, parseTree } from '../jsonc';
import { withSuffix } from '../file-names';
import type { TextRange } from '../json-document';
import { isJsonObject, type Json } from '../json';
import { withoutBom } from '../text';
import type { JudgeVerdict } from './judge';
import { LIMITS } from '../limits';
import { parseTarget, testFileObject } from './suite-parser';
import { unknownKeys } from './expect-problems';
import type { SuiteProblem, SuiteTarget } from './suite';

export const JUDGE_SUFFIX = '.judgetest.json';

/** A chosen path as a judge file's: ending in `.judgetest.json` once. */
export function judgeFilePath(chosen: string): string {
  return withSuffix(chosen, JUDGE_SUFFIX);
}

export interface Label {
  name: string;
  rubric: string;
  transcript: string;
  expected: JudgeVerdict;
  /** Where the label is in the file. */
  range: TextRange;
}

export interface JudgeFile {
  target?: SuiteTarget;
  /** The judge prompt, by name or id. */
  judge: string | number;
  labels: Label[];
  /** How many times each label is judged; odd, so a majority always exists. */
  repeat: number;
  minKappa: number;
}

export const JUDGE_FILE_KEYS: readonly string[] = ['$schema', 'target', 'judge', 'labels', 'repeat', 'minKappa'];
export const LABEL_KEYS: readonly string[] = ['name', 'rubric', 'transcript', 'expected'];
export const JUDGE_DEFAULTS = { repeat: 1, minKappa: 0.6, maxRepeat: LIMITS.mostJudgements.value } as const;

/**
 * Reads a judge file; `file` is undefined when a problem makes it unrunnable. A byte-order mark at the start is
 * ignored, and every range is an offset into `text` as given, mark included.
 */
export function parseJudgeFile(text: string): { file?: JudgeFile; problems: SuiteProblem[] } {
  const body = withoutBom(text);
  const read = parseBody(body);
  const mark = text.length - body.length;
  if (mark === 0) return read;
  const shift = <T extends { range: TextRange }>(item: T): T => ({
    ...item,
    range: { ...item.range, offset: item.range.offset + mark },
  });
  return {
    ...(read.file ? { file: { ...read.file, labels: read.file.labels.map(shift) } } : {}),
    problems: read.problems.map(shift),
  };
}

function parseBody(text: string): { file?: JudgeFile; problems: SuiteProblem[] } {
  const read = testFileObject(text, 'a judge file', '"judge" and "labels"');
  if (!('value' in read)) return read;
  const { value, problems, at } = read;
  unknownKeys(at, [], value, JUDGE_FILE_KEYS, 'a judge file');
  const target = parseTarget(at, value.target);
  const { judge } = value;
  const named =
    (typeof judge === 'number' && Number.isSafeInteger(judge)) || (typeof judge === 'string' && judge.trim() !== '');
  if (!named)
    at(judge === undefined ? [] : ['judge'], 'name the judge prompt: "judge" is its name or id in the tenant');
  const repeat = value.repeat ?? JUDGE_DEFAULTS.repeat;
  if (
    typeof repeat !== 'number' ||
    !Number.isSafeInteger(repeat) ||
    repeat < 1 ||
    repeat > JUDGE_DEFAULTS.maxRepeat ||
    repeat % 2 === 0
  ) {
    at(
      ['repeat'],
      `repeat is how many times each label is judged: an odd whole number from 1 to ${JUDGE_DEFAULTS.maxRepeat}, so a majority always exists`,
    );
  }
  const minKappa = value.minKappa ?? JUDGE_DEFAULTS.minKappa;
  if (typeof minKappa !== 'number' || minKappa < 0 || minKappa > 1)
    at(
      ['minKappa'],
      `minKappa is the lowest Cohen's kappa the judge may have: a number from 0 to 1 (default ${JUDGE_DEFAULTS.minKappa})`,
    );

  const labels: Label[] = [];
  if (!Array.isArray(value.labels) || value.labels.length === 0)
    at(
      value.labels === undefined ? [] : ['labels'],
      'labels must be a list of at least one label, each { "name", "rubric", "transcript", "expected" }',
    );
  // Names as Unicode compares them: "é" typed as one code point or as "e" and an accent is one name to a reader.
  const names = new Map<string, string>();
  const root = parseTree(text);
  (Array.isArray(value.labels) ? value.labels : []).forEach((item: Json, index) => {
    const path = ['labels', index];
    if (!isJsonObject(item)) return at(path, 'a label is an object with "name", "rubric", "transcript" and "expected"');
    const before = problems.length;
    unknownKeys(at, path, item, LABEL_KEYS, 'a label');
    const { name, rubric, transcript, expected } = item;
    if (typeof name !== 'string' || name.trim() === '') at([...path, 'name'], 'every label needs a "name"');
    else if (names.has(name.normalize('NFC'))) {
      const other = names.get(name.normalize('NFC')) as string;
      at(
        [...path, 'name'],
        `another label is named "${other}"${other === name ? '' : ', the same name in other code points (Unicode NFC)'}; names must be unique`,
      );
    } else names.set(name.normalize('NFC'), name);
    if (typeof rubric !== 'string' || rubric.trim() === '')
      at([...path, 'rubric'], 'every label needs a "rubric": what the judge checks the call for');
    if (typeof transcript !== 'string' || transcript.trim() === '')
      at([...path, 'transcript'], 'every label needs a "transcript": the call as text, one line per turn');
    if (expected !== 'pass' && expected !== 'fail')
      at([...path, 'expected'], 'expected is the verdict people gave the call: "pass" or "fail"');
    if (problems.length > before) return;
    const node = root && findNodeAtLocation(root, path);
    labels.push({
      name: name as string,
      rubric: rubric as string,
      transcript: transcript as string,
      expected: expected as JudgeVerdict,
      range: node ? { offset: node.offset, length: node.length } : { offset: 0, length: 0 },
    });
  });
  if (problems.length > 0) return { problems };
  return {
    file: { target, judge: judge as string | number, labels, repeat: repeat as number, minKappa: minKappa as number },
    problems,
  };
}
