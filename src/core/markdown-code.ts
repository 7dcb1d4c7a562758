/**
 * Any text inside Markdown as a code span: shown as written, never as
 * emphasis, a link or HTML. The pull request's comment of a plan and VS Code's
 * Plan Push preview both write names, files and service texts this way.
 */
import { inertLine } from './plain-text';

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
  const padded = /^`|`$/.test(inner) || (/^ .*[^ ].* $/.test(inner)) ? ` ${inner} ` : inner;
  return `${fence}${padded}${fence}`;
}
