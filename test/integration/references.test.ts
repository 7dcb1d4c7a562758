import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import type { TenantSegment } from '../../src/core/resource-kind';
import { addConnection, admin, diagnosticsWhen, documentUri, kind, removeConnection, replaceText } from './support';

const CONNECTION = 'refs';
const TENANT = 1;
const MISSING_ID = 987_654;

function resourceUri(segment: TenantSegment, id: number): vscode.Uri {
  return documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment, id });
}

/** Where a field's value starts in a document (two-space JSON, one field a line). */
function valueStart(document: vscode.TextDocument, field: string): vscode.Position {
  const key = `"${field}": `;
  const index = document.getText().indexOf(key);
  assert.ok(index >= 0, `${field} is in the document`);
  return document.positionAt(index + key.length);
}

function valueEnd(document: vscode.TextDocument, field: string): vscode.Position {
  const start = valueStart(document, field);
  const rest = document.lineAt(start.line).text.slice(start.character);
  return start.translate(0, rest.replace(/,$/, '').length);
}

const isWarning = (d: vscode.Diagnostic): boolean =>
  d.source === 'ConvAI' && d.severity === vscode.DiagnosticSeverity.Warning;

/** Resolves with a URI's ConvAI warnings once they satisfy the predicate, awaiting each change of its diagnostics. */
function warningsWhen(
  uri: vscode.Uri,
  predicate: (warnings: vscode.Diagnostic[]) => boolean,
  what: string,
): Promise<vscode.Diagnostic[]> {
  return diagnosticsWhen(uri, isWarning, predicate, what);
}

function links(uri: vscode.Uri): Thenable<vscode.DocumentLink[]> {
  return vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri);
}

function linkTargetAt(found: readonly vscode.DocumentLink[], position: vscode.Position): string | undefined {
  return found.find((link) => link.range.contains(position))?.target?.toString();
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

function text(label: string | vscode.InlayHintLabelPart[]): string {
  return typeof label === 'string' ? label : label.map((part) => part.value).join('');
}

describe('references inside documents', () => {
  const created: Array<[TenantSegment, number]> = [];
  const ids = new Map<string, number>();
  const idOf = (name: string): number => {
    const id = ids.get(name);
    assert.ok(id !== undefined, `${name} is in the sample data or was created`);
    return id;
  };

  async function create(segment: TenantSegment, fields: JsonObject): Promise<number> {
    const id = (await admin.create(kind(segment), fields, TENANT)).id as number;
    created.push([segment, id]);
    return id;
  }

  before(async () => {
    // Everything the tests read is in place before the extension first lists the tenant.
    await create('ai_prompts', {
      name: 'Refs dangling',
      description: 'Points at a prompt that is not there',
      next_prompt_id: MISSING_ID,
      exit_prompt_id: null,
    });
    await create('ai_functions', {
      name: 'refs_lookup_order',
      description: 'Looks up an order',
      parameters: { type: 'object', properties: {} },
    });
    const definition = (name: string): JsonObject => ({
      type: 'function',
      name,
      description: 'd',
      parameters: { type: 'object', properties: { name: { type: 'string', description: 'not a definition name' } } },
    });
    await create('ai_prompts', {
      name: 'Refs functions',
      function_defs: JSON.stringify([definition('refs_lookup_order'), definition('refs_no_such_function')]),
    });
    for (const segment of ['ai_prompts', 'intents', 'ai_actions', 'integrations', 'ai_functions'] as const) {
      for (const item of await admin.list(kind(segment), TENANT))
        ids.set(`${segment}:${String(item.name)}`, item.id as number);
    }
    await addConnection(CONNECTION);
  });

  afterEach(async () => {
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.authority === CONNECTION)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await removeConnection(CONNECTION);
    for (const [segment, id] of created.reverse()) await admin.delete(kind(segment), id, TENANT);
  });

  it('links a prompt next_prompt_id and exit_prompt_id to those prompts documents', async () => {
    const uri = resourceUri('ai_prompts', idOf('ai_prompts:Support Greeting'));
    const document = await vscode.workspace.openTextDocument(uri);
    const found = await links(uri);
    assert.equal(
      linkTargetAt(found, valueStart(document, 'next_prompt_id')),
      resourceUri('ai_prompts', idOf('ai_prompts:Order Triage')).toString(),
    );
    assert.equal(
      linkTargetAt(found, valueStart(document, 'exit_prompt_id')),
      resourceUri('ai_prompts', idOf('ai_prompts:Human Handoff')).toString(),
    );
  });

  it('links an intent parent and prompt, and an action integration', async () => {
    const intent = resourceUri('intents', idOf('intents:order_status'));
    const intentDocument = await vscode.workspace.openTextDocument(intent);
    const intentLinks = await links(intent);
    assert.equal(
      linkTargetAt(intentLinks, valueStart(intentDocument, 'parent_id')),
      resourceUri('intents', idOf('intents:orders')).toString(),
    );
    assert.equal(
      linkTargetAt(intentLinks, valueStart(intentDocument, 'ai_prompt_id')),
      resourceUri('ai_prompts', idOf('ai_prompts:Order Triage')).toString(),
    );
    const action = resourceUri('ai_actions', idOf('ai_actions:Check Order Status'));
    const actionDocument = await vscode.workspace.openTextDocument(action);
    assert.equal(
      linkTargetAt(await links(action), valueStart(actionDocument, 'integration_id')),
      resourceUri('integrations', idOf('integrations:Order Status API')).toString(),
    );
  });

  it('warns on a reference to an id the tenant does not hold, on the value', async () => {
    const uri = resourceUri('ai_prompts', idOf('ai_prompts:Refs dangling'));
    const document = await vscode.workspace.openTextDocument(uri);
    const [warning] = await warningsWhen(uri, (w) => w.length > 0, 'a warning on next_prompt_id');
    assert.ok(warning);
    assert.equal(
      warning.message,
      `next_prompt_id: tenant ${TENANT} holds no AI Prompt ${MISSING_ID}; choose one of its AI Prompts (completion lists them) or null`,
    );
    assert.ok(
      warning.range.isEqual(
        new vscode.Range(valueStart(document, 'next_prompt_id'), valueEnd(document, 'next_prompt_id')),
      ),
      'the warning is on the value',
    );
  });

  it('warns while typing a missing id, and stops once the id exists again', async () => {
    const uri = resourceUri('ai_prompts', idOf('ai_prompts:Support Greeting'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const original = document.getText();
    const exitId = idOf('ai_prompts:Human Handoff');
    await replaceText(document, original.replace(`"exit_prompt_id": ${exitId}`, `"exit_prompt_id": ${MISSING_ID}`));
    const warnings = await warningsWhen(
      uri,
      (w) => w.some((d) => d.message.startsWith('exit_prompt_id:')),
      'a warning on exit_prompt_id',
    );
    assert.equal(warnings.length, 1, 'next_prompt_id holds an existing prompt');
    assert.equal(warnings[0]?.range.start.line, valueStart(document, 'exit_prompt_id').line);
    await replaceText(document, original);
    await warningsWhen(uri, (w) => w.length === 0, 'the warning to go');
  });

  it('completes next_prompt_id with the tenant prompts by name, and null', async () => {
    const uri = resourceUri('ai_prompts', idOf('ai_prompts:Support Greeting'));
    const document = await vscode.workspace.openTextDocument(uri);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      valueEnd(document, 'next_prompt_id'),
    );
    const resolution = list.items.find((item) => labelOf(item) === 'Order Resolution');
    assert.ok(resolution, `Order Resolution is offered among ${list.items.map(labelOf).join(', ')}`);
    const id = idOf('ai_prompts:Order Resolution');
    assert.equal(resolution.detail, `AI Prompt ${id}`);
    assert.equal(resolution.insertText, String(id));
    for (const name of ['Human Handoff', 'Order Triage', 'null'])
      assert.ok(
        list.items.some((item) => labelOf(item) === name),
        `${name} is offered`,
      );
  });

  it('names the target after the value, and on hover', async () => {
    const uri = resourceUri('ai_prompts', idOf('ai_prompts:Support Greeting'));
    const document = await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
      'vscode.executeInlayHintProvider',
      uri,
      whole,
    );
    const next = hints.find((hint) => hint.position.isEqual(valueEnd(document, 'next_prompt_id')));
    assert.ok(next, `a hint after next_prompt_id among ${JSON.stringify(hints.map((h) => text(h.label)))}`);
    assert.match(text(next.label), /Order Triage/);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      valueStart(document, 'exit_prompt_id'),
    );
    // The names are the service's text, appended as text: Markdown escapes its spaces as &nbsp;.
    const shown = hovers
      .flatMap((hover) => hover.contents.map((c) => (typeof c === 'string' ? c : c.value)))
      .join('\n')
      .replace(/&nbsp;/g, ' ');
    assert.ok(shown.includes(`AI Prompt ${idOf('ai_prompts:Human Handoff')} · Human Handoff`), shown);
  });

  it('links a function definition named like an AI function of the tenant to that function', async () => {
    const uri = documentUri({
      type: 'part',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      id: idOf('ai_prompts:Refs functions'),
      part: 'function_defs',
    });
    const document = await vscode.workspace.openTextDocument(uri);
    const found = (await links(uri)).filter((link) => link.target?.scheme === 'convai');
    assert.deepEqual(
      found.map((link) => [document.getText(link.range), link.target?.toString()]),
      [['refs_lookup_order', resourceUri('ai_functions', idOf('ai_functions:refs_lookup_order')).toString()]],
    );
  });
});
