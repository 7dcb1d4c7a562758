/**
 * Whether a text can be read out by a voice (contract: "Spoken answers"): what a
 * speech engine would spell out or stumble over (Markdown, URLs, emoji), each
 * found with its place, and words counted as a listener hears them.
 */
import { locator } from '../text';

interface Finding {
  kind: string;
  offset: number;
  length: number;
}

/** A picture, with its skin tone if it has one; a text-style symbol (❤) only with the selector that makes it a picture. */
const EMOJI_PART = String.raw`(?:\p{Emoji_Modifier_Base}\p{Emoji_Modifier}|\p{Emoji_Presentation}\uFE0F?|\p{Extended_Pictographic}\uFE0F)`;

/**
 * In order of precedence: what lies inside code or a link is reported as that, not again as the emphasis or URL
 * it holds. `m` is multiline, so `^` is a line's start. A link's parts and a bold span are bounded (far beyond any
 * real one): unbounded, every "[" or "**" that opens nothing would be searched to the line's end, which on an answer
 * of one long line is quadratic.
 */
const DETECTORS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'code', pattern: /```[\s\S]*?(?:```|$)|`[^`\n]+`/g },
  { kind: 'a link', pattern: /!?\[[^\]\n]{1,500}\]\([^)\n]{0,2000}\)/g },
  { kind: 'a URL', pattern: /\b(?:https?:\/\/|www\.)[^\s)>\]]+/g },
  { kind: 'a heading', pattern: /^ {0,3}#{1,6}(?=\s)/gm },
  { kind: 'a table', pattern: /^ *\|.*\|[ \t]*$/gm },
  // An ordered list a voice answer might hold counts from 1 and stays below 100, while a line that opens with three
  // digits or more and a full stop is a year or an amount ending the sentence before ("2025. was a good year").
  { kind: 'a list marker', pattern: /^ *(?:[-*+]|\d{1,2}[.)])(?=[ \t]+\S)/gm },
  {
    kind: 'emphasis',
    pattern:
      /(\*\*|__|~~)(?=\S)[^\n]{0,500}?\S\1|(?<![\w*])\*(?=[^\s*])[^*\n]*?[^\s*]\*(?![\w*])|(?<![\w_])_(?=[^\s_])[^_\n]*?[^\s_]_(?![\w_])/g,
  },
  // Presented as pictures: digits, © and ™ are "emoji" to Unicode too, but a voice reads them as words. One emoji as
  // a reader sees it is one finding: a flag (two regional indicators), a keycap (a digit, # or * and U+20E3), a
  // skin tone on its base, a subdivision flag's tags and the parts a zero-width joiner makes one (a family).
  {
    kind: 'an emoji',
    pattern: new RegExp(
      String.raw`\p{Regional_Indicator}{2}|[0-9#*]\uFE0F?\u20E3|${EMOJI_PART}(?:[\u{E0020}-\u{E007E}]+\u{E007F})?(?:\u200D${EMOJI_PART})*`,
      'gu',
    ),
  },
];

const QUOTE_LENGTH = 30;

/** Characters as a reader sees them, so a cut quote never ends in half an emoji (a flag, a family) or half a letter. */
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function quoted(text: string): string {
  const chars: string[] = [];
  for (const { segment } of graphemes.segment(text)) {
    if (chars.length === QUOTE_LENGTH) return JSON.stringify(`${chars.slice(0, QUOTE_LENGTH - 1).join('')}…`);
    chars.push(segment);
  }
  return JSON.stringify(text);
}

/**
 * Everything in `text` a voice cannot read as it is, in the order it appears; empty when the text is speakable.
 * Linear in the text, as long answers and answers full of findings must not stall a run.
 */
export function unspeakable(text: string): string[] {
  let found: Finding[] = [];
  for (const { kind, pattern } of DETECTORS) {
    const more: Finding[] = [];
    // A detector's matches come in order, so one walk over the earlier findings (sorted) says which lie inside one:
    // a finding that ends before a match can hold no later match either.
    let next = 0;
    for (const match of text.matchAll(pattern)) {
      const offset = match.index + (match[0].length - match[0].trimStart().length);
      while (next < found.length && (found[next] as Finding).offset + (found[next] as Finding).length <= offset) next++;
      if (next < found.length && (found[next] as Finding).offset <= offset) continue;
      more.push({ kind, offset, length: match[0].trim().length });
    }
    found = [...found, ...more].sort((a, b) => a.offset - b.offset);
  }
  const place = locator(text);
  return found.map(({ kind, offset, length }) => {
    const { line, column } = place(offset);
    return `${kind} ${quoted(text.slice(offset, offset + length))} at line ${line}, column ${column}`;
  });
}

/** Words as a listener hears them: "don't", "3.5" and "10:30" are one each; punctuation and symbols are none. */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’.,:-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}
