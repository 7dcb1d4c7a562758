import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  addConnection,
  admin,
  canonical,
  clearFaults,
  diagnosticsWhen,
  documentUri,
  injectFaults,
  kind,
  removeConnection,
  replaceText,
  rejection,
} from './support';

const CONNECTION = 'json';
const TENANT = 1;

/** Resolves with the diagnostics of a URI once some satisfy the predicate. */
function diagnosticsOf(uri: vscode.Uri, predicate: (d: vscode.Diagnostic) => boolean): Promise<vscode.Diagnostic[]> {
  return diagnosticsWhen(uri, predicate, (matching) => matching.length > 0, 'a matching diagnostic');
}

function positionOf(document: vscode.TextDocument, needle: string, offsetInNeedle = 0): vscode.Position {
  const index = document.getText().indexOf(needle);
  assert.ok(index >= 0, `${needle} is in the document`);
  return document.positionAt(index + offsetInNeedle);
}

describe('JSON support and opening failures', () => {
  let promptId = 0;
  before(async () => {
    await addConnection(CONNECTION);
    promptId = (await admin.create(kind('ai_prompts'), { name: 'Schema check', mode: 1, voice: 'alloy' }, TENANT))
      .id as number;
  });
  after(async () => {
    await clearFaults();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
  });

  const promptUri = (): vscode.Uri =>
    documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id: promptId });

  it('squiggles a schema violation while typing', async () => {
    const document = await vscode.workspace.openTextDocument(promptUri());
    await vscode.window.showTextDocument(document);
    await replaceText(
      document,
      document.getText().replace('"mode": 1', '"mode": 7').replace('"voice": "alloy"', '"voice": "robot"'),
    );
    const problems = await diagnosticsOf(
      document.uri,
      (d) => d.source !== 'ConvAI' && /mode|enum|Value is not accepted/i.test(d.message),
    );
    assert.ok(problems.some((d) => d.range.start.line === positionOf(document, '"mode": 7').line));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('offers the voice options as completions', async () => {
    const document = await vscode.workspace.openTextDocument(promptUri());
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      positionOf(document, '"voice": "alloy"', '"voice": "'.length),
    );
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const voice of ['"ash"', '"coral"', '"verse"'])
      assert.ok(labels.includes(voice), `${voice} in ${labels.join(', ')}`);
  });

  it('explains a field on hover', async () => {
    const document = await vscode.workspace.openTextDocument(promptUri());
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      positionOf(document, '"mode"', 2),
    );
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Activated/);
  });

  it('refuses to open a resource the service does not have, instead of showing an empty document', async () => {
    const missing = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'intents',
      id: 987_654,
    });
    const error = await rejection(vscode.workspace.openTextDocument(missing));
    assert.match(error.message, /404|not found|nonexistent/i);
  });

  it('refuses to open when the service fails, naming the cause', async () => {
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id: 1,
    });
    // Reads are retried (three attempts each), and VS Code may read more than once.
    await injectFaults({
      match: 'GET /api/v1/ai_functions/1',
      status: 503,
      body: '<html><body>maintenance</body></html>',
      contentType: 'text/html',
      count: 9,
    });
    const error = await rejection(vscode.workspace.openTextDocument(uri));
    assert.match(error.message, /503 Service Unavailable/);
    await clearFaults();
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), canonical(await admin.get(kind('ai_functions'), 1, TENANT)));
  });
});
