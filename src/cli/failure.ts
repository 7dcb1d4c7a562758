/**
 * Any error a command ends with, as an exit code and one message for stderr:
 * never a stack trace, never the token. A failed request's message already
 * says its fix in a terminal's words (the client has the CLI's advice).
 */
import { ServiceError } from '../core/errors';
import { ManifestError } from '../core/tenant/manifest';
import { PushRefused } from '../core/tenant/push';
import { EXIT, UsageError, type ExitCode } from './command';

function fileMessage(error: Error & { code?: unknown }): string | undefined {
  if (typeof error.code !== 'string' || !/^E[A-Z]+$/.test(error.code)) return undefined;
  return `A file could not be read or written (${error.message}); check the folder's path and permissions.`;
}

export function failure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError || error instanceof ManifestError) return { code: EXIT.usage, message: error.message };
  if (error instanceof PushRefused || error instanceof ServiceError) return { code: EXIT.failed, message: error.message };
  if (error instanceof Error) return { code: EXIT.failed, message: fileMessage(error) ?? error.message };
  return { code: EXIT.failed, message: String(error) };
}

/** Belt and braces: whatever a message holds, the token is not written out. */
export function redact(text: string, token: string | undefined): string {
  return token ? text.split(token).join('[redacted]') : text;
}
