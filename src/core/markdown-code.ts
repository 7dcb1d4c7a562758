/**
 * Any text inside Markdown as code: a code span, `<code>` in HTML or a fenced
 * block, shown as written, never as emphasis, a link or HTML. The plan's
 * Markdown (a pull request's comment, VS Code's Plan Push preview) writes
 * names, files and service texts this way.
 */
import { inertLine, inertLines } from './plain-text';

/** The most times `char` stands in a row in `text`: a fence of one more cannot be closed by the text. */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** A code span its text cannot close: fenced by more backticks than the text's longest run (CommonMark 6.1). */
export function codeSpan(text: string): string {
  // Line breaks, controls and bidi overrides as escapes: a blank line would end a code span, U+202E reverse the text after it.
  const inner = inertLine(text);
  const fence = '`'.repeat(longestRun(inner, '`') + 1);
  const padded = /^`|`$/.test(inner) || /^ .*[^ ].* $/.test(inner) ? ` ${inner} ` : inner;
  return `${fence}${padded}${fence}`;
}

/** A text as the content of an HTML element (`<code>` in a `<summary>`, where Markdown is not read): on one line, escaped. */
export function htmlText(text: string): string {
  return inertLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A fenced block its lines cannot close (a longer fence than any backtick run in them); a carriage return, a line end
 * there, shown as ␍, and any other control or bidi character as its escape (a tab stays).
 */
export function fencedBlock(info: string, lines: readonly string[]): string[] {
  const body = lines.map((line) => inertLines(line.replace(/\r/g, '␍')));
  const fence = '`'.repeat(Math.max(3, ...body.map((line) => longestRun(line, '`') + 1)));
  return [`${fence}${info}`, ...body, fence];
}
