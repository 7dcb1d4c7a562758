/**
 * A suite file as VS Code reads and resolves it, whichever feature runs it (the Testing view, the variant lab): its
 * text as the user sees it, the connection and tenant it runs against (its `target`, else convai.testTarget), and
 * its resource and the prompts its turns name, resolved against that tenant. A suite that cannot run says why, at
 * its line and column.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../core/client';
import type { Suite } from '../core/prompt-tests/suite';
import { parseSuite } from '../core/prompt-tests/suite-parser';
import {
  prepareSuite,
  TargetError,
  whereSuiteRuns,
  type CreatedPrompt,
  type ResolvedTarget,
} from '../core/prompt-tests/target';
import { lineColumnText } from '../core/text';
import { testTarget } from './settings';

export class SuiteError extends Error {}

/**
 * The test file a command names: a URI (or its text), else the active editor's document, when its name ends in one of
 * `suffixes`; else a SuiteError saying `needs`.
 */
export function namedTestFile(arg: unknown, suffixes: readonly string[], needs: string): vscode.Uri {
  const uri =
    arg instanceof vscode.Uri
      ? arg
      : typeof arg === 'string'
        ? vscode.Uri.parse(arg)
        : arg === undefined
          ? vscode.window.activeTextEditor?.document.uri
          : undefined;
  if (!uri || !suffixes.some((suffix) => uri.path.endsWith(suffix))) throw new SuiteError(needs);
  return uri;
}

/** A suite's text as the user sees it (an open document, perhaps unsaved), else as it is on disk. */
export async function suiteText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

export function cannotRun(
  uri: vscode.Uri,
  text: string,
  problems: ReadonlyArray<{ message: string; range: { offset: number } }>,
): SuiteError {
  return new SuiteError(
    `${vscode.workspace.asRelativePath(uri)} cannot run: ${problems.map((p) => `${lineColumnText(text, p.range.offset)} ${p.message}`).join('; ')}.`,
  );
}

/** The suite and the text it was read from, where its results are placed. */
export async function readSuite(uri: vscode.Uri): Promise<{ suite: Suite; text: string }> {
  const text = await suiteText(uri);
  const { suite, problems } = parseSuite(text);
  if (suite) return { suite, text };
  throw cannotRun(uri, text, problems);
}

/** What resolving a suite needs of the connection registry. */
export interface SuiteConnections {
  get(name: string): object | undefined;
  client(name: string): ServiceClient;
}

export interface SuiteTenant {
  connection: string;
  tenantId: number;
}

/** The connection and tenant a suite runs against; an error that says how to name them when it names none. */
export function suiteTenant(connections: SuiteConnections, uri: vscode.Uri, suite: Suite): SuiteTenant {
  const { connection, tenantId } = whereSuiteRuns(suite, {}, testTarget());
  const file = path.basename(uri.path);
  if (connection === undefined || tenantId === undefined) {
    throw new SuiteError(
      `${file} names no ${connection === undefined ? 'connection' : 'tenant'} to run against: give the suite a "target" ({ "connection", "tenantId" }) or set convai.testTarget.`,
    );
  }
  if (!connections.get(connection))
    throw new SuiteError(
      `${file} runs against the connection "${connection}", which does not exist: add it with "ConvAI: Add Connection" or change the suite's target.`,
    );
  return { connection, tenantId };
}

/** The suite's resource and the prompts it names, in its tenant; names it cannot resolve are problems at their places. */
export async function resolveSuite(
  client: ServiceClient,
  read: { uri: vscode.Uri; text: string; suite: Suite },
  { connection, tenantId }: SuiteTenant,
  signal?: AbortSignal,
  created?: readonly CreatedPrompt[],
): Promise<ResolvedTarget> {
  try {
    return await prepareSuite(client, read.suite, tenantId, `connection "${connection}"`, signal, created);
  } catch (error) {
    if (error instanceof TargetError && error.problems.length > 0) throw cannotRun(read.uri, read.text, error.problems);
    throw error;
  }
}
