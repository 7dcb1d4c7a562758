/** Small text jobs that messages, the CLI and the editor glue all do the same way. */

/** The message of anything thrown: an Error's message, else the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "1 change", "2 changes", "0 changes". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Editors on Windows may save UTF-8 with a byte-order mark; JSON.parse and hashes must not see it. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of an offset, as editors and CI annotations count them: a byte-order mark, which editors hide, is no column. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = offset > 0 && text.length > withoutBom(text).length ? 1 : 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, column: offset - start + 1 };
}

/** `line:column` of an offset, the way compilers and CI annotations place a problem. */
export function lineColumnText(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset);
  return `${line}:${column}`;
}
