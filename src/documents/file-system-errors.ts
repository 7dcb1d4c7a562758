/**
 * How a failure of the `convai:` file system reaches VS Code: as the
 * FileSystemError its cause calls for, logged, and shown with its fix where
 * VS Code would not explain it.
 */
import * as vscode from 'vscode';
import { ServiceError } from '../core/errors';
import { plainText } from '../core/plain-text';
import { messageOf } from '../core/text';
import type { Log } from '../log';
import { showFailure } from '../ui/notify';

/** `read`: a document's text, which VS Code's editor does not explain when it cannot be read. */
export async function callService<T>(
  log: Log,
  uri: vscode.Uri,
  request: () => Promise<T>,
  read?: 'document',
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw reportedFailure(log, uri, error, read);
  }
}

/** A failure of a request for `uri` as VS Code takes it, logged and, where VS Code would not explain it, shown. */
export function reportedFailure(log: Log, uri: vscode.Uri, error: unknown, read?: 'document'): vscode.FileSystemError {
  log.for('documents').warn(`${uri.toString()}: ${messageOf(error)}`);
  // The editor of a document that could not be read says only "unexpected error, consult the log" (a missing file
  // aside): the reason and its fix are shown beside it.
  const unexplained =
    read === 'document' && !(error instanceof ServiceError && (error.status === 404 || error.kind === 'cancelled'));
  if (unexplained) showFailure(log, error);
  else offerSetToken(log, error);
  return toFileSystemError(error);
}

/** A 401 offers Set Token beside the message VS Code shows for the failure, which has no button of ours. */
export function offerSetToken(log: Log, error: unknown): void {
  if (error instanceof ServiceError && error.status === 401) showFailure(log, error);
}

export function toFileSystemError(error: unknown): vscode.FileSystemError {
  if (error instanceof vscode.FileSystemError) return error;
  // VS Code quotes it in a notification ("Failed to save …"), where a Markdown link of the service's text is a command.
  const message = plainText(messageOf(error));
  if (!(error instanceof ServiceError)) return new vscode.FileSystemError(message);
  if (error.status === 404) return vscode.FileSystemError.FileNotFound(message);
  if (error.status === 401 || error.status === 403) return vscode.FileSystemError.NoPermissions(message);
  if (error.kind === 'network' || error.kind === 'timeout' || (error.status ?? 0) >= 500)
    return vscode.FileSystemError.Unavailable(message);
  return new vscode.FileSystemError(message);
}
