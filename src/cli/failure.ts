/**
 * Any error a command ends with, as an exit code and one message for stderr:
 * never a stack trace, never the token. A failed request's message already
 * says its fix in a terminal's words (the client has the CLI's advice).
 */
import { ServiceError } from '../core/errors';
import { ManifestError } from '../core/tenant/manifest';
import { PushRefused } from '../core/tenant/push-refused';
import { EXIT, UsageError, type ExitCode } from './command';

function fileMessage(error: Error & { code?: unknown }): string | undefined {
  if (typeof error.code !== 'string' || !/^E[A-Z]+$/.test(error.code)) return undefined;
  return `A file could not be read or written (${error.message}); check the folder's path and permissions.`;
}

export function failure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError || error instanceof ManifestError)
    return { code: EXIT.usage, message: error.message };
  if (error instanceof PushRefused || error instanceof ServiceError)
    return { code: EXIT.failed, message: error.message };
  if (error instanceof Error) return { code: EXIT.failed, message: fileMessage(error) ?? error.message };
  return { code: EXIT.failed, message: String(error) };
}

const REDACTED = '[redacted]';
/** The characters of words and numbers. */
const WORD = /[\p{L}\p{N}_]/u;
/** No word or number the tool writes holds a string this long by chance. */
const ANYWHERE_FROM = 16;
/**
 * A shorter token is no secret that hiding keeps (a few characters are guessed sooner than read from a log), and it
 * is the tool's own ids and numbers as often as an echo: `2` made a coverage edge `ai_prompts/[redacted] -> ai_prompts/2`
 * beside the key `ai_prompts/2`. So it is shown as it is.
 */
const HIDDEN_FROM = 8;

/**
 * Where the token is hidden. A token of ANYWHERE_FROM characters or more, as real ones are, is hidden wherever it is:
 * an echo can glue it to other characters (the `\n` of an escaped line break, a URL's `%20`). A shorter one
 * (`12345678`, `password`) can be part of the tool's own numbers and words, and hiding it there would make the output
 * false (`0.12345678`, `passwords`). So such a token is hidden where it stands on its own: an edge of it that is a
 * letter, digit or `_` must meet no such character (an escape's letter, as the `n` of `\n`, is no such character), nor
 * a decimal point between digits. An edge that is no such character (base64's `=`) needs no boundary: nothing runs on across it. A token that
 * is a common word is hidden wherever it stands as that word: that can make the tool's sentences odd, never show a
 * credential.
 */
function tokenPattern(token: string): RegExp {
  const chars = Array.from(token);
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (chars.length >= ANYWHERE_FROM) return new RegExp(escaped, 'gu');
  const before = WORD.test(chars[0] ?? '') ? '(?<!(?<!\\\\)[\\p{L}\\p{N}_]|\\p{N}\\.)' : '';
  const after = WORD.test(chars.at(-1) ?? '') ? '(?![\\p{L}\\p{N}_]|\\.\\p{N})' : '';
  return new RegExp(`${before}${escaped}${after}`, 'gu');
}

const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;
const KEY_AFTER = /\s*:/y;

function isJsonDocument(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON document with the token hidden in its string values only, so that `--json` stays parseable and its numbers
 * true whatever the token is: numbers and literals are the tool's own, keys are field names, and a credential can
 * only be text. A value is searched as decoded text (a token after an escaped `\n` is found) and written back as a
 * valid string.
 */
function redactJsonValues(text: string, hide: (value: string) => string): string {
  return text.replace(STRING_LITERAL, (literal: string, offset: number) => {
    KEY_AFTER.lastIndex = offset + literal.length;
    if (KEY_AFTER.test(text)) return literal;
    const value = JSON.parse(literal) as string;
    const hidden = hide(value);
    return hidden === value ? literal : JSON.stringify(hidden);
  });
}

/** Belt and braces: whatever a line holds, the token (of HIDDEN_FROM characters or more) is not written out. */
export function redactor(token: string | undefined): (text: string) => string {
  if (!token || Array.from(token).length < HIDDEN_FROM) return (text) => text;
  const pattern = tokenPattern(token);
  const hide = (value: string): string => value.replace(pattern, REDACTED);
  return (text) => (isJsonDocument(text) ? redactJsonValues(text, hide) : hide(text));
}
