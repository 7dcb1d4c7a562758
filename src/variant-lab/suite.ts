/**
 * A suite with variants made ready to run or apply: read as the Testing view reads it, its `file` variants read with
 * VS Code's file system relative to the suite, and its prompt resolved in the suite's tenant.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../core/client';
import type { Suite } from '../core/prompt-tests/suite';
import type { ResolvedTarget } from '../core/prompt-tests/target';
import { describeLocation, toResourceUriString, type WholeLocation } from '../core/uri';
import { readVariants } from '../core/variants/variant-files';
import type { Variant } from '../core/variants/variant-spec';
import {
  cannotRun,
  readSuite,
  resolveSuite,
  SuiteError,
  suiteTenant,
  type SuiteConnections,
  type SuiteTenant,
} from '../shared/suite-target';

export interface LabSuite {
  uri: vscode.Uri;
  suite: Suite;
  text: string;
  tenant: SuiteTenant;
  client: ServiceClient;
  target: ResolvedTarget;
  variants: Variant[];
  /** The prompt's document, and how people read its name. */
  prompt: { uri: vscode.Uri; label: string };
}

/** A file named relative to the suite, as text. */
async function readBeside(suite: vscode.Uri, relative: string): Promise<string> {
  const folder = suite.with({ path: path.posix.dirname(suite.path) });
  return Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, relative))).toString('utf8');
}

/** The suite and its variants as written, before anything is sent: an error when it has none. */
export async function suiteWithVariants(uri: vscode.Uri): Promise<{ suite: Suite; text: string }> {
  const read = await readSuite(uri);
  if (!read.suite.variants)
    throw new SuiteError(
      `${vscode.workspace.asRelativePath(uri)} has no "variants" to compare: add a list such as [{ "name": "shorter", "fields": { "system": "…" } }] beside its cases.`,
    );
  return read;
}

export async function labSuite(
  connections: SuiteConnections,
  uri: vscode.Uri,
  signal?: AbortSignal,
): Promise<LabSuite> {
  const { suite, text } = await suiteWithVariants(uri);
  const tenant = suiteTenant(connections, uri, suite);
  const { variants, problems } = await readVariants(suite.variants ?? [], (relative) => readBeside(uri, relative));
  if (problems.length > 0) throw cannotRun(uri, text, problems);
  const client = connections.client(tenant.connection);
  const target = await resolveSuite(client, { uri, text, suite }, tenant, signal);
  const location: WholeLocation = { type: 'resource', ...tenant, segment: 'ai_prompts', id: target.id };
  return {
    uri,
    suite,
    text,
    tenant,
    client,
    target,
    variants,
    prompt: { uri: vscode.Uri.parse(toResourceUriString(location)), label: describeLocation(location, target.name) },
  };
}
