/**
 * A simulated call as people read it after a run (contract: "Simulated
 * callers"): the call's lines as the judges read them, then each criterion's
 * outcome in that call with the judge's verdict, reasoning and quote. Plain
 * text: what the service said is shown as it was said, never interpreted.
 */
import { indentedLines, inertLine } from '../plain-text';
import { plural } from '../text';
import type { CaseResult, CaseRun, TranscriptLine } from './types';
import { isJudged, type JudgedCriterion } from './simulated-case';
import type { TestCase } from './suite';

/**
 * A prompt's name as a turn's first line writes it: on that line (line breaks, controls and bidirectional controls
 * escaped), and never ending the name early, for the name ends at the first `)` before `:`, so such a `)` inside it
 * is written `\u0029`.
 */
function speakerName(name: string): string {
  return inertLine(name).replace(/\)(?=:)/g, '\\u0029');
}

/**
 * One turn as the caller and the judges read it: `caller: <text>` or `assistant (<prompt>): <text>`, a text of
 * several lines going on in lines indented by two spaces. So every line that starts at the margin starts a turn, and
 * no caller, assistant or prompt name can write a line that reads as another turn.
 */
export function turnText(line: TranscriptLine): string {
  const speaker = line.speaker === 'caller' ? 'caller' : `assistant (${speakerName(line.prompt ?? '?')})`;
  return `${speaker}: ${indentedLines(line.text, '  ')}`;
}

/** The call as the caller and the judges read it: its turns, one after another. */
export function transcriptText(lines: readonly TranscriptLine[]): string {
  return lines.map(turnText).join('\n');
}

/** The call a result shows: the one its transcript came from (the first failing call, else the last). */
export function shownCall(result: CaseResult): CaseRun | undefined {
  return result.transcript ? result.details.find((run) => run.transcript === result.transcript) : undefined;
}

/** What Label This Call… needs of a shown call: its text as the judge reads it, and the criteria a judge decides. */
export interface LabellableCall {
  transcript: string;
  judged: JudgedCriterion[];
}

export function labellableCall(testCase: TestCase, result: CaseResult): LabellableCall | undefined {
  if (!result.transcript) return undefined;
  return { transcript: transcriptText(result.transcript), judged: (testCase.criteria ?? []).filter(isJudged) };
}

/** A judge's words under its criterion: their lines indented further, so none reads as a criterion's line. */
function indented(label: string, text: string): string {
  return `  ${label}: ${indentedLines(text, '    ')}`;
}

/** The document's text: a heading that says which call this is, the call, then its criteria. */
export function callTranscriptText(testCase: TestCase, result: CaseResult, suiteFile: string): string {
  const call = shownCall(result);
  const calls = result.details.length;
  const which =
    call && !call.passed
      ? calls > 1
        ? `The first failing call of ${calls}`
        : 'The call, which failed'
      : calls > 1
        ? `The last call of ${calls}, all passed`
        : 'The call, which passed';
  // Two short lines, so the heading reads whole in a narrow editor.
  const lines = [`Simulated call "${testCase.name}" (${suiteFile})`, `${which}.`];
  if (call?.error !== undefined) lines.push(`It errored (no evidence either way): ${call.error}.`);
  lines.push('', transcriptText(result.transcript ?? []) || '(nothing was said)', '', 'Criteria');
  for (const criterion of testCase.criteria ?? []) {
    const outcome = call?.criteria?.find((c) => c.name === criterion.name);
    const how = isJudged(criterion) ? `judged by ${JSON.stringify(criterion.judge)}` : 'checked on the call';
    if (!outcome) {
      lines.push(`[not decided] ${criterion.name} (${how}): the call ended before it was`);
      continue;
    }
    const votes =
      outcome.judgement && outcome.judgement.votes.pass + outcome.judgement.votes.fail > 1
        ? `, ${outcome.judgement.votes[outcome.judgement.verdict]} of ${plural(outcome.judgement.votes.pass + outcome.judgement.votes.fail, 'judgement')}`
        : '';
    lines.push(
      `[${outcome.error !== undefined ? 'error' : outcome.passed ? 'pass' : 'fail'}] ${criterion.name} (${how}${votes})`,
    );
    if (outcome.judgement) {
      lines.push(indented('reasoning', outcome.judgement.reasoning));
      if (outcome.judgement.quote !== undefined) lines.push(indented('quote', JSON.stringify(outcome.judgement.quote)));
    } else if (outcome.error !== undefined) lines.push(indented('why', outcome.error));
    else if (outcome.reason !== '') lines.push(indented('why', outcome.reason));
  }
  return `${lines.join('\n')}\n`;
}
