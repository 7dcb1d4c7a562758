/**
 * Text from the service, a file or an AI shown to a person as text and
 * nothing more: it can neither run a command, draw an icon, move the
 * cursor, recolour a terminal, nor reverse what follows it.
 *
 * Every shell asks these functions where such text meets a person: VS Code's
 * notifications, dialogs, labels and titles (`plainText`), the command-line
 * tool's human output (`inertLine`, `inertLines`). Text meant for a
 * machine (JSON, a saved file) keeps its characters as they are.
 */

/**
 * Characters that act instead of showing: C0 and C1 controls (ESC starts a
 * terminal's escape sequences, CR rewrites a line, BEL rings), DEL, the
 * line and paragraph separators that some renderers break lines at, and the
 * bidirectional controls that reorder the text after them (U+202E turns
 * "gnp.exe" into "exe.png").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is what this module is for
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** The same, less the line feed and tab that a text of several lines keeps. */
const ACTIVE_IN_LINES =
  // eslint-disable-next-line no-control-regex -- as above
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\n`, `\r`, `\t`, else `\u` and four hex digits, as JSON and JavaScript write them. */
function escaped(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One line of text with every active character written as its escape: a table cell, a log line, a label. */
export function inertLine(text: string): string {
  return text.replace(ACTIVE, escaped);
}

/** Text of several lines, each kept, with every other active character written as its escape. */
export function inertLines(text: string): string {
  return text.replace(ACTIVE_IN_LINES, escaped);
}

/**
 * Where some reader starts a new line: LF, CR alone or before LF, and the vertical tab, form feed, file, group and
 * record separators, next line, line and paragraph separators that other readers (Unicode's line breaking, Python's
 * splitlines, some editors) break at.
 */
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/g;

/**
 * Text of several lines whose every line after the first starts with `indent`, at each character any reader breaks a
 * line at (written as a line feed): so text set after a label can never start a line of its own that reads as one.
 */
export function indentedLines(text: string, indent: string): string {
  return text.replace(LINE_BREAK, `\n${indent}`);
}

/**
 * Text for anything VS Code shows (a notification, a dialog, the status bar,
 * a tree item, a quick pick, a tab's title): one line, inert, with the two
 * syntaxes VS Code reads in some of those places broken. A Markdown link
 * `[x](command:…)` is a clickable command in a notification, so `](` is
 * written `]\(`; a codicon `$(zap)` is an icon in the status bar and quick
 * picks, so `$(` is written `\$(` (which those places show as `$(`).
 */
export function plainText(text: string): string {
  return inertLine(text)
    .replace(/\]\(/g, ']\\(')
    .replace(/(?<!\\)\$\(/g, '\\$(');
}

/** A template literal whose interpolated values are shown by plainText, while its own text (a codicon the extension chose) stays. */
export function plain(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  return strings.reduce(
    (text, part, index) => text + (index === 0 ? '' : plainText(String(values[index - 1]))) + part,
    '',
  );
}
