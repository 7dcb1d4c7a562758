import * as path from 'node:path';
import { applyEdits, modify } from '../core/jsonc';
import * as vscode from 'vscode';
import { COMMANDS, registerCommand, type CommandShells } from '../commands';
import type { Json, JsonObject } from '../core/json';
import { conversationCase, conversationTurns } from '../core/run-conversations';
import { responseOf, type RunRecord } from '../core/history';
import { OUTPUTS, SUITE_SUFFIX, suitePath } from '../core/prompt-tests/suite';
import { parseSuite } from '../core/prompt-tests/suite-parser';
import { suiteTemplate } from '../core/prompt-tests/template';
import { promptPlaceholders } from '../core/prompt-text';
import { kindOfSegment } from '../core/resources';
import { slug } from '../core/tenant/resource-paths';
import { parseResourcePath, type WholeLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import { fileTarget } from '../shared/locations';
import type { Log } from '../log';
import type { HistoryStore } from '../shared/history-store';
import { suiteText } from '../shared/suite-target';

type Tested = Extract<WholeLocation, { type: 'resource' }> & { segment: 'ai_prompts' | 'integrations' };

function tested(location: WholeLocation | undefined): Tested | undefined {
  return location?.type === 'resource' && (location.segment === 'ai_prompts' || location.segment === 'integrations')
    ? (location as Tested)
    : undefined;
}

/** A new suite's text for the resource, with the format's cheat sheet as its header. */
function newSuiteText(resource: Tested, name: string, testCase: JsonObject): string {
  return suiteTemplate({
    target: { connection: resource.connection, tenantId: resource.tenantId },
    segment: resource.segment,
    name,
    cases: [testCase],
  });
}

/** The suite file a program names: an absolute path ending in the suite suffix. */
function givenSuiteFile(given: unknown): vscode.Uri {
  if (typeof given !== 'string' || !path.isAbsolute(given) || !given.endsWith(SUITE_SUFFIX))
    throw new Error(`file must be an absolute path ending in ${SUITE_SUFFIX}.`);
  return vscode.Uri.file(given);
}

/** The suite file a user chooses, proposed in the workspace under the resource's name. */
async function askSuiteFile(name: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  // The filter names `json`, the extension a dialog can see: with `prompttest.json`, one appended it to the proposed
  // name, which already ends so, and wrote `….prompttest.json.prompttest.json`.
  const chosen = await vscode.window.showSaveDialog({
    title: 'Save the prompt test suite',
    saveLabel: 'Create Suite',
    filters: { 'Prompt test suite': ['json'] },
    defaultUri: folder && vscode.Uri.joinPath(folder, `${slug(name) || 'suite'}${SUITE_SUFFIX}`),
  });
  return chosen && chosen.with({ path: suitePath(chosen.path) });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

async function createSuite(uri: vscode.Uri, text: string, show: boolean): Promise<string> {
  if (await exists(uri))
    throw new Error(`${vscode.workspace.asRelativePath(uri)} exists already: choose another name, or add cases to it.`);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  if (show) await vscode.window.showTextDocument(uri, { preview: false });
  return uri.toString();
}

/** The workspace's suite for this resource on this target, if there is one. */
async function suiteOf(resource: Tested, name: string): Promise<vscode.Uri | undefined> {
  for (const uri of await vscode.workspace.findFiles(`**/*${SUITE_SUFFIX}`, '**/node_modules/**')) {
    const { suite } = parseSuite(await suiteText(uri));
    if (
      !suite ||
      suite.resource.segment !== resource.segment ||
      (suite.resource.ref !== name && suite.resource.ref !== resource.id)
    )
      continue;
    if (
      suite.target &&
      (suite.target.connection !== resource.connection || suite.target.tenantId !== resource.tenantId)
    )
      continue;
    return uri;
  }
  return undefined;
}

/** A case from a recorded run: its inputs, and its outputs as the expected values (which the user then loosens). */
function caseOf(run: RunRecord, names: ReadonlySet<string>): JsonObject {
  const response = responseOf(run.outcome) ?? {};
  const first =
    String(run.inputs.prompt_text ?? run.inputs.action ?? 'case')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40) || 'case';
  let name = first;
  for (let n = 2; names.has(name); n++) name = `${first} (${n})`;
  const outputs: readonly string[] = OUTPUTS[run.operation === 'execute_action' ? 'integrations' : 'ai_prompts'];
  const expect = Object.fromEntries(
    outputs.filter((field) => field in response).map((field) => [field, response[field] as Json]),
  );
  return { name, ...run.inputs, expect };
}

/** The resource a run ran on, as a prompt or an integration of a suite. */
function testedOf(uri: string): Tested {
  const parsed = vscode.Uri.parse(uri);
  const resource = tested(parseResourcePath(parsed.authority, parsed.path) as WholeLocation | undefined);
  if (!resource) throw new Error(`${uri} is no prompt or integration.`);
  return resource;
}

/**
 * Adds a case to the resource's suite in the workspace (a programmatic caller's `file`), or starts one with it
 * (a user chooses where); `makeCase` gets the names taken, so the new case's is unique. Resolves to the suite's URI.
 */
async function addCase(
  resource: Tested,
  name: string,
  makeCase: (taken: ReadonlySet<string>) => JsonObject,
  where: CaseDestination,
): Promise<string | undefined> {
  const existing = where.file ?? (await suiteOf(resource, name));
  if (!existing || !(await exists(existing))) {
    const uri = existing ?? (await askSuiteFile(name));
    if (!uri) return undefined;
    return createSuite(uri, newSuiteText(resource, name, makeCase(new Set())), where.show);
  }
  const document = await vscode.workspace.openTextDocument(existing);
  const text = document.getText();
  const { suite } = parseSuite(text);
  if (!suite)
    throw new Error(`${vscode.workspace.asRelativePath(existing)} has problems; fix them before adding a case to it.`);
  const added = makeCase(new Set(suite.cases.map((c) => c.name)));
  const edits = modify(text, ['cases', suite.cases.length], added, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    existing,
    new vscode.Range(document.positionAt(0), document.positionAt(text.length)),
    applyEdits(text, edits),
  );
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit to the suite.');
  await document.save();
  if (where.show) await vscode.window.showTextDocument(document, { preview: false });
  return existing.toString();
}

/** Where a saved case goes: the suite a program names (else the resource's suite, or one the user chooses), shown to a user. */
interface CaseDestination {
  file?: vscode.Uri;
  show: boolean;
}

/** A command that adds a case made of a recorded run: a program may name the suite's file, and is shown nothing. */
function caseCommand(
  save: (arg: unknown, where: CaseDestination) => Promise<string | undefined>,
): CommandShells<string> {
  return {
    programmatic: (args) =>
      save(args, { file: typeof args.file === 'string' ? vscode.Uri.file(args.file) : undefined, show: false }),
    interactive: (arg) => save(arg, { show: true }),
  };
}

/** The resource a new suite tests, or the fix. */
function testedTarget(location: Parameters<typeof tested>[0]): Tested {
  const resource = tested(location);
  if (!resource)
    throw new Error(
      'Open an AI prompt or an integration (or choose one in the ConvAI view) to start a test suite for it.',
    );
  return resource;
}

/** A new suite's first case, which runs as it stands (a greeting, and an answer that says something), for the user to sharpen. */
function firstCase(resource: Tested, detail: JsonObject): JsonObject {
  if (resource.segment !== 'ai_prompts') return { name: 'ping', action: 'ping', expect: { status: 'success' } };
  const params = Object.fromEntries(promptPlaceholders(detail).map((p) => [p, '']));
  return {
    name: 'answers a greeting',
    prompt_text: 'Hello',
    ...(Object.keys(params).length > 0 ? { prompt_params: params } : {}),
    expect: { response: { matches: '\\S' } },
  };
}

export function registerAuthoring(log: Log, connections: Connections, history: HistoryStore): vscode.Disposable[] {
  const nameOf = async (resource: Tested): Promise<{ name: string; detail: JsonObject }> => {
    const detail = await connections
      .client(resource.connection)
      .get(kindOfSegment(resource.segment), resource.id, resource.tenantId);
    return { name: typeof detail.name === 'string' ? detail.name : String(resource.id), detail };
  };
  return [
    registerCommand(log, COMMANDS.newPromptTestSuite, {
      programmatic: async (args) => {
        const resource = testedTarget(fileTarget(args.uri, false)?.location);
        const { name, detail } = await nameOf(resource);
        return createSuite(givenSuiteFile(args.file), newSuiteText(resource, name, firstCase(resource, detail)), false);
      },
      interactive: async (arg) => {
        const resource = testedTarget(fileTarget(arg, true)?.location);
        const { name, detail } = await nameOf(resource);
        const uri = await askSuiteFile(name);
        return uri && createSuite(uri, newSuiteText(resource, name, firstCase(resource, detail)), true);
      },
    }),
    registerCommand(
      log,
      COMMANDS.saveAsTestCase,
      caseCommand(async (arg, where) => {
        const run = history.named(arg);
        if (!run || run.operation === 'send_request')
          throw new Error(
            'resource and runId must name a recorded test_prompt or execute_action run (see convai.showRunHistory).',
          );
        const resource = testedOf(run.resource);
        return addCase(resource, (await nameOf(resource)).name, (names) => caseOf(run, names), where);
      }),
    ),
    registerCommand(
      log,
      COMMANDS.saveAsConversationCase,
      caseCommand(async (arg, where) => {
        const last = history.named(arg);
        if (!last?.conversation)
          throw new Error(
            'resource and runId must name a recorded turn of a conversation continued in the results panel (convai.continueConversation).',
          );
        const turns = conversationTurns(last, (resource, runId) => history.find(resource, runId));
        const firstUri = (turns[0] as RunRecord).resource;
        // The name each answering prompt has now, asked once per prompt: the case expects it by name, as a person writes it.
        const names = new Map<string, string>();
        for (const run of turns)
          if (!names.has(run.resource)) names.set(run.resource, (await nameOf(testedOf(run.resource))).name);
        return addCase(
          testedOf(firstUri),
          names.get(firstUri) ?? '',
          (taken) => conversationCase(turns, (run) => names.get(run.resource) ?? '', taken),
          where,
        );
      }),
    ),
  ];
}
