/**
 * Where a token is hidden in text the tool shows: one rule for a failure's text from the service (responses.ts) and
 * for every line the command-line tool writes (src/cli/failure.ts).
 */
const REDACTED = '[redacted]';
/** The characters of words and numbers. */
const WORD = /[\p{L}\p{N}_]/u;
/** No word or number the tool writes holds a string this long by chance. */
const ANYWHERE_FROM = 16;
/**
 * A shorter token is no secret that hiding keeps (a few characters are guessed sooner than read from a log), and it
 * is the tool's own ids and numbers and the service's words as often as an echo: `2` made a coverage edge
 * `ai_prompts/[redacted] -> ai_prompts/2`, and `t` a message `promp[redacted] is deac[redacted]iva[redacted]ed`. So it is
 * shown as it is.
 */
export const HIDDEN_FROM = 8;

/**
 * Where the token is hidden. A token of ANYWHERE_FROM characters or more, as real ones are, is hidden wherever it is:
 * an echo can glue it to other characters (the `\n` of an escaped line break, a URL's `%20`). A shorter one
 * (`12345678`, `password`) can be part of the tool's own numbers and words, and hiding it there would make the output
 * false (`0.12345678`, `passwords`). So such a token is hidden where it stands on its own: an edge of it that is a
 * letter, digit or `_` must meet no such character (an escape's letter, as the `n` of `\n`, is no such character), nor
 * a decimal point between digits. An edge that is no such character (base64's `=`) needs no boundary: nothing runs on
 * across it. A token that is a common word is hidden wherever it stands as that word: that can make a sentence odd,
 * never show a credential.
 */
function tokenPattern(token: string): RegExp {
  const chars = Array.from(token);
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (chars.length >= ANYWHERE_FROM) return new RegExp(escaped, 'gu');
  const before = WORD.test(chars[0] ?? '') ? '(?<!(?<!\\\\)[\\p{L}\\p{N}_]|\\p{N}\\.)' : '';
  const after = WORD.test(chars.at(-1) ?? '') ? '(?![\\p{L}\\p{N}_]|\\.\\p{N})' : '';
  return new RegExp(`${before}${escaped}${after}`, 'gu');
}

/** Text with the token hidden as the rule above says; as it is for no token, or one shorter than HIDDEN_FROM. */
export function tokenHider(token: string | undefined): (text: string) => string {
  if (!token || Array.from(token).length < HIDDEN_FROM) return (text) => text;
  const pattern = tokenPattern(token);
  return (text) => text.replace(pattern, REDACTED);
}
