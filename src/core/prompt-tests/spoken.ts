/**
 * Whether a text can be read out by a voice (contract: "Spoken answers"): what a
 * speech engine would spell out or stumble over (Markdown, URLs, emoji), each
 * found with its place, and words counted as a listener hears them.
 */
import { lineAndColumn } from '../text';

interface Finding {
  kind: string;
  offset: number;
  length: number;
}

/**
 * In order of precedence: what lies inside code or a link is reported as that, not again as the emphasis or URL
 * it holds. `m` is multiline, so `^` is a line's start.
 */
const DETECTORS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'code', pattern: /```[\s\S]*?(?:```|$)|`[^`\n]+`/g },
  { kind: 'a link', pattern: /!?\[[^\]\n]+\]\([^)\n]*\)/g },
  { kind: 'a URL', pattern: /\b(?:https?:\/\/|www\.)[^\s)>\]]+/g },
  { kind: 'a heading', pattern: /^ {0,3}#{1,6}(?=\s)/gm },
  { kind: 'a table', pattern: /^ *\|.*\|[ \t]*$/gm },
  { kind: 'a list marker', pattern: /^ *(?:[-*+]|\d+[.)])(?=[ \t]+\S)/gm },
  { kind: 'emphasis', pattern: /(\*\*|__|~~)(?=\S)[^\n]*?\S\1|(?<![\w*])\*(?=[^\s*])[^*\n]*?[^\s*]\*(?![\w*])|(?<![\w_])_(?=[^\s_])[^_\n]*?[^\s_]_(?![\w_])/g },
  // Presented as pictures: digits, © and ™ are "emoji" to Unicode too, but a voice reads them as words.
  { kind: 'an emoji', pattern: /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/gu },
];

const QUOTE_LENGTH = 30;

function quoted(text: string): string {
  const chars = Array.from(text);
  return JSON.stringify(chars.length > QUOTE_LENGTH ? `${chars.slice(0, QUOTE_LENGTH - 1).join('')}…` : text);
}

/** Everything in `text` a voice cannot read as it is, in the order it appears; empty when the text is speakable. */
export function unspeakable(text: string): string[] {
  const found: Finding[] = [];
  const inside = (offset: number): boolean => found.some((f) => offset >= f.offset && offset < f.offset + f.length);
  for (const { kind, pattern } of DETECTORS) {
    for (const match of text.matchAll(pattern)) {
      const offset = match.index + (match[0].length - match[0].trimStart().length);
      if (!inside(offset)) found.push({ kind, offset, length: match[0].trim().length });
    }
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ kind, offset, length }) => {
    const { line, column } = lineAndColumn(text, offset);
    return `${kind} ${quoted(text.slice(offset, offset + length))} at line ${line}, column ${column}`;
  });
}

/** Words as a listener hears them: "don't", "3.5" and "10:30" are one each; punctuation and symbols are none. */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’.,:-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}
