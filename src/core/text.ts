/** Small text jobs that messages, the CLI and the editor glue all do the same way. */

/** The message of anything thrown: an Error's message, else the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "1 change", "2 changes", "0 changes". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** Editors on Windows may save UTF-8 with a byte-order mark; JSON.parse and hashes must not see it. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of an offset, as editors and CI annotations count them: a byte-order mark, which editors hide, is no column. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  return locator(text)(offset);
}

/** lineAndColumn for many offsets of one text: the lines are found once, so placing every finding in a long text stays linear. */
export function locator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [text.length > withoutBom(text).length ? 1 : 0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    // The last line starting at or before the offset (the mark's own offset, 0, is on line 1 too).
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: Math.max(offset - (starts[low] as number), 0) + 1 };
  };
}

/** `line:column` of an offset, the way compilers and CI annotations place a problem. */
export function lineColumnText(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset);
  return `${line}:${column}`;
}

/** `text` cut to `limit` characters (code points, so no emoji is split), with an ellipsis when cut. */
export function cut(text: string, limit: number): string {
  const chars = Array.from(text);
  return chars.length <= limit ? text : `${chars.slice(0, limit).join('')}…`;
}
