/**
 * `convai.labelCall` (contract: "Judge calibration"): a call's transcript,
 * with the verdict people gave it, appended as a label to a judge file, the
 * file created when there is none. Comments and layout of a file are kept.
 */
import { applyEdits, modify } from '../core/jsonc';
import * as vscode from 'vscode';
import { JUDGE_SUFFIX, parseJudgeFile } from '../core/prompt-tests/judge-file';
import { withoutBom } from '../core/text';

export interface LabelCallArgs {
  file: string | vscode.Uri;
  rubric: string;
  transcript: string;
  expected: 'pass' | 'fail';
  name?: string;
  /** The judge prompt's name or id, for a file that does not exist yet. */
  judge?: string | number;
}

function text(args: Record<string, unknown>, field: string): string {
  const value = args[field];
  if (typeof value !== 'string' || value.trim() === '')
    throw new Error(`${field} must be a non-empty text: the label's ${field}.`);
  return value;
}

/** The arguments checked, each problem naming its field and the fix. */
export function labelCallArgs(args: Record<string, unknown>): LabelCallArgs {
  const file = args.file;
  if (!(file instanceof vscode.Uri) && typeof file !== 'string')
    throw new Error(`file must be the URI of a judge file, ending in ${JUDGE_SUFFIX}.`);
  if (args.expected !== 'pass' && args.expected !== 'fail')
    throw new Error(
      `expected must be "pass" or "fail", the verdict people gave the call (got ${JSON.stringify(args.expected) ?? 'nothing'}).`,
    );
  if (args.name !== undefined && (typeof args.name !== 'string' || args.name.trim() === ''))
    throw new Error('name, when given, must be a non-empty text; leave it out for "call <n>".');
  if (args.judge !== undefined && typeof args.judge !== 'string' && !Number.isSafeInteger(args.judge))
    throw new Error("judge, when given, is the judge prompt's name or id.");
  return {
    file,
    rubric: text(args, 'rubric'),
    transcript: text(args, 'transcript'),
    expected: args.expected,
    ...(typeof args.name === 'string' ? { name: args.name } : {}),
    ...(typeof args.judge === 'string' || typeof args.judge === 'number' ? { judge: args.judge } : {}),
  };
}

/** Appends the label; returns the file and how many labels it holds now. */
export async function labelCall(args: LabelCallArgs): Promise<{ file: string; labels: number }> {
  const uri =
    typeof args.file === 'string'
      ? /^[a-z][a-z0-9+.-]+:/i.test(args.file)
        ? vscode.Uri.parse(args.file)
        : vscode.Uri.file(args.file)
      : args.file;
  if (!uri.path.endsWith(JUDGE_SUFFIX))
    throw new Error(`file must name a judge file, ending in ${JUDGE_SUFFIX} (got ${uri.path}).`);
  let current: string | undefined;
  try {
    current = withoutBom(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
  } catch (error) {
    if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
  }
  if (current === undefined && args.judge === undefined) {
    throw new Error(
      `${uri.path} does not exist, and a new judge file needs its judge: pass judge, the judge prompt's name or id.`,
    );
  }
  const body = current ?? `${JSON.stringify({ judge: args.judge, labels: [] }, null, 2)}\n`;
  let labels: ReadonlyArray<{ name: string }> = [];
  if (current !== undefined) {
    const { file, problems } = parseJudgeFile(current);
    // A file with problems is not rewritten: appending could not keep what the user meant.
    if (!file)
      throw new Error(
        `${uri.path} has problems (${problems.map((p) => p.message).join('; ')}); fix them, then label the call again.`,
      );
    labels = file.labels;
  }
  const taken = new Set(labels.map((l) => l.name.normalize('NFC')));
  let name = args.name ?? `call ${labels.length + 1}`;
  if (args.name !== undefined && taken.has(name.normalize('NFC')))
    throw new Error(`${uri.path} already has a label named ${JSON.stringify(name)}; give another name.`);
  for (let n = labels.length + 1; taken.has(name.normalize('NFC')); n++) name = `call ${n + 1}`;
  const label = { name, rubric: args.rubric, transcript: args.transcript, expected: args.expected };
  const edited = applyEdits(
    body,
    modify(body, ['labels', -1], label, { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
  );
  await vscode.workspace.fs.writeFile(uri, Buffer.from(edited, 'utf8'));
  return { file: uri.toString(), labels: labels.length + 1 };
}
