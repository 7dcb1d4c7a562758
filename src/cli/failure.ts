/**
 * Any error a command ends with, as an exit code and one message for stderr:
 * never a stack trace, never the token, and a fix a terminal user can apply
 * (the core's hints name VS Code commands, which mean nothing here).
 */
import { describeRequest, ServiceError, statusText } from '../core/errors';
import { ManifestError } from '../core/tenant/manifest';
import { PushRefused } from '../core/tenant/push';
import { EXIT, UsageError, type ExitCode } from './command';
import { TOKEN_VARIABLE } from './service';

/** What to do about a status, said for the command line. */
const STATUS_FIXES: Readonly<Record<number, string>> = {
  401: `the service did not accept the token; set ${TOKEN_VARIABLE} to a valid token for this service`,
  403: `the token may not do this; set ${TOKEN_VARIABLE} to a token with access to the tenant`,
  404: 'check the base URL and the tenant id, or pull the tenant again',
};

function serviceMessage(error: ServiceError): string {
  const fix = error.status === undefined ? undefined : STATUS_FIXES[error.status];
  if (error.kind !== 'http' || error.status === undefined || fix === undefined) return error.message;
  const reason = error.serviceMessage ? ` (${error.serviceMessage.replace(/[.\s]+$/, '')})` : '';
  return `${describeRequest(error)} failed with ${error.status} ${statusText(error.status)}${reason}: ${fix}.`;
}

function fileMessage(error: Error & { code?: unknown }): string | undefined {
  if (typeof error.code !== 'string' || !/^E[A-Z]+$/.test(error.code)) return undefined;
  return `A file could not be read or written (${error.message}); check the folder's path and permissions.`;
}

export function failure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError || error instanceof ManifestError) return { code: EXIT.usage, message: error.message };
  if (error instanceof PushRefused) return { code: EXIT.failed, message: error.message };
  if (error instanceof ServiceError) return { code: EXIT.failed, message: serviceMessage(error) };
  if (error instanceof Error) return { code: EXIT.failed, message: fileMessage(error) ?? error.message };
  return { code: EXIT.failed, message: String(error) };
}

/** Belt and braces: whatever a message holds, the token is not written out. */
export function redact(text: string, token: string | undefined): string {
  return token ? text.split(token).join('[redacted]') : text;
}
