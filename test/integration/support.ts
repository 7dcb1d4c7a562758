import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { request } from 'undici';
import * as vscode from 'vscode';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { maskCredentials } from '../../src/core/credentials';
import type { publicResult } from '../../src/core/prompt-tests/report';
import { kindBySegment } from '../../src/core/resources';
import type { ResourceKind, Segment } from '../../src/core/resource-kind';
import { toResourceUriString, type FileLocation } from '../../src/core/uri';
import type { Fault } from '../service/faults';
import { listenOnLoopback } from '../support/loopback';

function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set: run the integration tests through npm test`);
  return value;
}

export const serviceUrl = env('CONVAI_SERVICE_URL');
export const adminToken = env('CONVAI_ADMIN_TOKEN');

/** A client of the test's own, to set up and check the service's state independently of the extension. */
export const admin = new ServiceClient({ baseUrl: serviceUrl, token: () => adminToken });

/** A second local service, seeded with the large tenant (contract "Large tenants"), for the tests at that size. */
export const largeService = {
  url: env('CONVAI_LARGE_SERVICE_URL'),
  adminToken: env('CONVAI_LARGE_ADMIN_TOKEN'),
  tenantId: 3,
} as const;

/** convai.runPromptTests's answer (contract: "Prompt test suites"); the test checks its fields at run time. */
export type PromptTestResult = ReturnType<typeof publicResult>;
export type PromptTestCase = PromptTestResult['cases'][number];

export function kind(segment: Segment): ResourceKind {
  const found = kindBySegment(segment);
  assert.ok(found, segment);
  return found;
}

export async function addConnection(
  name: string,
  options: { readOnly?: boolean; token?: string; baseUrl?: string } = {},
): Promise<void> {
  await vscode.commands.executeCommand('convai.addConnection', {
    name,
    baseUrl: options.baseUrl ?? serviceUrl,
    token: options.token ?? adminToken,
    ...(options.readOnly ? { readOnly: true } : {}),
  });
}

export async function removeConnection(name: string): Promise<void> {
  await vscode.commands.executeCommand('convai.removeConnection', { name });
}

export function documentUri(location: FileLocation): vscode.Uri {
  return vscode.Uri.parse(toResourceUriString(location));
}

/** What the extension must show for a detail object: two-space JSON. */
export function canonical(detail: JsonObject): string {
  return `${JSON.stringify(detail, null, 2)}\n`;
}

/** What a document shows of a detail object: two-space JSON with credentials masked (see credentials.test.ts). */
export function shown(segment: Segment, detail: JsonObject): string {
  return canonical(maskCredentials(kind(segment).id, detail));
}

export async function replaceText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applied');
}

/** Reverts what a test left dirty (closing a dirty editor would ask), then closes every editor. */
export async function revertAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'convai')) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function rejection(promise: Thenable<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('expected a rejection');
}

/** The reason a write was refused, through the same provider path an editor save takes. */
export async function writeError(uri: vscode.Uri, text: string): Promise<Error> {
  try {
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail(`writing ${uri.toString()} was expected to fail`);
}

/** Queues faults in the local service (test mode only). */
export async function injectFaults(...queue: Fault[]): Promise<void> {
  const response = await request(`${serviceUrl}/__test/faults`, {
    method: 'POST',
    body: JSON.stringify({ queue }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.statusCode, 200, await response.body.text());
}

export async function clearFaults(): Promise<void> {
  await (await request(`${serviceUrl}/__test/faults`, { method: 'DELETE' })).body.text();
}

/** Resolves when the document's text satisfies the predicate (VS Code reloads it asynchronously). */
export function documentText(
  document: vscode.TextDocument,
  predicate: (text: string) => boolean,
  what: string,
): Promise<string> {
  if (predicate(document.getText())) return Promise.resolve(document.getText());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out waiting for ${what}; the text is ${document.getText()}`));
    }, 10_000);
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && predicate(document.getText())) {
        clearTimeout(timer);
        listener.dispose();
        resolve(document.getText());
      }
    });
  });
}

/**
 * The document's diagnostics that `keep` keeps, once they satisfy `ready`: VS Code's JSON support and the
 * extension publish them asynchronously.
 */
export function diagnosticsWhen(
  uri: vscode.Uri,
  keep: (d: vscode.Diagnostic) => boolean,
  ready: (kept: vscode.Diagnostic[]) => boolean,
  what: string,
): Promise<vscode.Diagnostic[]> {
  const kept = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter(keep);
  if (ready(kept())) return Promise.resolve(kept());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(
        new Error(
          `timed out waiting for ${what} on ${uri.toString()}; the diagnostics are ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => d.message))}`,
        ),
      );
    }, 15_000);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === uri.toString()) || !ready(kept())) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(kept());
    });
  });
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: 'present' | 'absent';
  /** The field names inside the wrapper key of a create or update body (never their values). */
  fields?: string[];
  /** Arrival and answer, in ms of the service's clock (test/service/request-log.ts's mostInFlight reads them). */
  start: number;
  end?: number;
}

/** The API requests a local service (the sample one unless named) received (never their tokens), oldest first. */
export async function receivedRequests(url: string = serviceUrl): Promise<RecordedRequest[]> {
  const response = await request(`${url}/__test/requests`);
  return (await response.body.json()) as RecordedRequest[];
}

export async function clearRequests(url: string = serviceUrl): Promise<void> {
  await (await request(`${url}/__test/requests`, { method: 'DELETE' })).body.text();
}

export interface ReceivedRequest {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Recorder {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A loopback server that records each request it receives and answers as told. */
export async function startRecorder(answer: {
  status: number;
  contentType: string;
  body: (request: ReceivedRequest) => string;
  headers?: Record<string, string>;
}): Promise<Recorder> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = { method: req.method, url: req.url, headers: req.headers, body };
      received.push(request);
      res.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers });
      res.end(answer.body(request));
    });
  });
  return { ...(await listenOnLoopback(server)), received };
}

/** The text of code-server's log files whose path (below its logs folder) the predicate accepts; at least one must exist. */
export function workbenchLogs(accept: (file: string) => boolean): string {
  const userData = process.env.CONVAI_CODE_SERVER_USER_DATA;
  assert.ok(userData, 'the harness passes CONVAI_CODE_SERVER_USER_DATA');
  const files = fs
    .readdirSync(path.join(userData, 'logs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.log') && accept(file))
    .map((file) => path.join(userData, 'logs', file));
  assert.ok(files.length > 0, 'a log file was written');
  return files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** Writes a suite into the workspace, run against `connection`'s tenant 1 unless it names its own target. */
export async function writeSuite(connection: string, name: string, suite: object): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run in a workspace');
  const uri = vscode.Uri.joinPath(folder.uri, `${name}.prompttest.json`);
  await vscode.workspace.fs.writeFile(
    uri,
    Buffer.from(JSON.stringify({ target: { connection, tenantId: 1 }, ...suite }, null, 2)),
  );
  return uri;
}
