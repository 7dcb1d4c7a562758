/**
 * Any error a command ends with, as an exit code and one message for stderr:
 * never a stack trace, never the token. A failed request's message already
 * says its fix in a terminal's words (the client has the CLI's advice).
 */
import { ServiceError } from '../core/errors';
import { ManifestError } from '../core/tenant/manifest';
import { PushRefused } from '../core/tenant/push-refused';
import { EXIT, UsageError, type ExitCode } from './command';
import { tokenHider } from '../core/token-redaction';

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

/** Belt and braces: whatever a line holds, the token is not written out (core/token-redaction.ts says where). */
export function redactor(token: string | undefined): (text: string) => string {
  const hide = tokenHider(token);
  return (text) => (isJsonDocument(text) ? redactJsonValues(text, hide) : hide(text));
}
