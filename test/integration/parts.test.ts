import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import { toResourceUriString, type PartLocation, type PromptPart } from '../../src/core/uri';
import {
  addConnection,
  admin,
  adminToken,
  clearFaults,
  clearRequests,
  diagnosticsWhen,
  documentText,
  documentUri,
  injectFaults,
  kind,
  receivedRequests,
  removeConnection,
  replaceText,
  revertAll,
  writeError,
} from './support';
import { KindNode, NoticeNode, PartNode, ResourceNode, TenantNode, type TreeNode } from '../../src/tree/nodes';
import { ownTree } from './own-tree';

const CONNECTION = 'parts';
const TENANT = 1;
const prompts = kind('ai_prompts');
const agents = kind('agents');

const definition = {
  type: 'function',
  name: 'get_order_status',
  description: 'Look up an order',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order number' } },
    required: ['order_id'],
  },
};
const FIELDS: JsonObject = {
  name: 'Parts probe',
  description: 'A prompt whose texts open as documents',
  system: 'You are {{assistant_name}} of Acme.\n\n## Rules\n- Be brief.\n- Never promise refunds.\n',
  user_prompt: 'Customer {{customer_name}} asks: {{question}}',
  assistant: 'Sure, {{customer_name}}.',
  settings: '{"language":"en","temperature_hint":0.2}',
  function_defs: JSON.stringify([definition]),
};

/** What each part document must show for the stored fields (contract: Prompt parts). */
const EXPECTED: Readonly<Record<PromptPart, (stored: JsonObject) => string>> = {
  system: (p) => String(p.system),
  user_prompt: (p) => String(p.user_prompt),
  assistant: (p) => String(p.assistant),
  function_defs: (p) => `${JSON.stringify(JSON.parse(String(p.function_defs)), null, 2)}\n`,
  settings: (p) => `${JSON.stringify(JSON.parse(String(p.settings)), null, 2)}\n`,
};

/** A new value of each part, as the document's text, and as the service then holds it. */
const EDITS: Readonly<Record<PromptPart, { text: string; stored: string }>> = {
  system: {
    text: 'You are {{assistant_name}}.\n\nÜnïcode 👋 and a trailing newline\n',
    stored: 'You are {{assistant_name}}.\n\nÜnïcode 👋 and a trailing newline\n',
  },
  user_prompt: { text: '', stored: '' },
  assistant: { text: 'Of course.', stored: 'Of course.' },
  function_defs: {
    text: `[\n  ${JSON.stringify({ ...definition, name: 'lookup_order' })}\n]\n`,
    stored: JSON.stringify([{ ...definition, name: 'lookup_order' }]),
  },
  settings: { text: '{\n  "language": "de"\n}\n', stored: '{"language":"de"}' },
};

function part(id: number, name: PromptPart): PartLocation {
  return { type: 'part', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id, part: name };
}

function partUri(location: PartLocation): vscode.Uri {
  return vscode.Uri.parse(toResourceUriString(location));
}

async function stored(id: number): Promise<JsonObject> {
  return admin.get(prompts, id, TENANT);
}

/**
 * The document's language once it is `expected`: VS Code opens any settings.json as JSON with comments, and the
 * extension then sets a prompt's settings part to strict JSON.
 */
function languageOf(document: vscode.TextDocument, expected: string): Promise<string> {
  if (document.languageId === expected) return Promise.resolve(expected);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(document.languageId);
    }, 5_000);
    const listener = vscode.workspace.onDidOpenTextDocument((reopened) => {
      if (reopened.uri.toString() !== document.uri.toString() || reopened.languageId !== expected) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(reopened.languageId);
    });
  });
}

function convaiDiagnostics(uri: vscode.Uri, ready: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return diagnosticsWhen(uri, (d) => d.source === 'ConvAI', ready, 'the ConvAI diagnostics');
}

describe("prompt parts: a prompt's texts and JSON fields as documents of their own", () => {
  let id = 0;

  before(async () => {
    await addConnection(CONNECTION);
    id = (await admin.create(prompts, FIELDS, TENANT)).id as number;
  });
  after(async () => {
    await removeConnection(CONNECTION);
  });
  afterEach(async () => {
    await clearFaults();
    await revertAll();
  });

  it('opens every part with the exact content of its field: texts as Markdown, JSON parts parsed', async () => {
    const prompt = await stored(id);
    for (const name of Object.keys(EXPECTED) as PromptPart[]) {
      const document = await vscode.workspace.openTextDocument(partUri(part(id, name)));
      assert.equal(document.getText(), EXPECTED[name](prompt), name);
      assert.equal(
        await languageOf(document, name === 'function_defs' || name === 'settings' ? 'json' : 'markdown'),
        name === 'function_defs' || name === 'settings' ? 'json' : 'markdown',
        `${name} language`,
      );
    }
  });

  it("lists the parts as the prompt's folder", async () => {
    const entries = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/ai_prompts/${id}/`),
    );
    assert.deepEqual(
      entries.map(([name]) => name),
      ['system.md', 'user_prompt.md', 'assistant.md', 'function_defs.json', 'settings.json'],
    );
  });

  for (const name of Object.keys(EDITS) as PromptPart[]) {
    it(`saves ${name} with one PUT that sends that field alone, and the service holds it`, async () => {
      const uri = partUri(part(id, name));
      const document = await vscode.workspace.openTextDocument(uri);
      await replaceText(document, EDITS[name].text);
      await clearRequests();
      assert.ok(await document.save(), 'the save succeeded');
      const puts = (await receivedRequests()).filter((r) => r.method === 'PUT');
      assert.deepEqual(
        puts.map((r) => [r.path, r.fields]),
        [[`/api/v1/ai_prompts/${id}`, [name]]],
      );
      const after = await stored(id);
      assert.equal(after[name], EDITS[name].stored);
      await documentText(document, (text) => text === EXPECTED[name](after), 'the part to show what the service holds');
      assert.equal(document.isDirty, false);
    });
  }

  it('refuses invalid function_defs, nothing sent, a diagnostic at the place', async () => {
    const uri = partUri(part(id, 'function_defs'));
    const document = await vscode.workspace.openTextDocument(uri);
    const nameless = Object.fromEntries(Object.entries(definition).filter(([key]) => key !== 'name'));
    // Each problem sits on what it is about: the definition missing a name, the parameters missing properties, the second name.
    const cases: Array<[string, unknown[], RegExp, RegExp]> = [
      ['a definition without a name', [nameless], /\[0\]\.name: required/, /^\{\s*"type": "function",[\s\S]*\}$/],
      [
        'parameters without properties',
        [{ ...definition, parameters: { type: 'object' } }],
        /\[0\]\.parameters\.properties: required/,
        /^\{\s*"type": "object"\s*\}$/,
      ],
      [
        'a duplicate name',
        [definition, { ...definition, description: 'again' }],
        /\[1\]\.name: "get_order_status" is already the name/,
        /^"get_order_status"$/,
      ],
    ];
    for (const [what, value, message, at] of cases) {
      const before = await stored(id);
      const text = `${JSON.stringify(value, null, 2)}\n`;
      await replaceText(document, text);
      await clearRequests();
      assert.equal(await document.save(), false, `${what}: refused`);
      assert.deepEqual(
        (await receivedRequests()).filter((r) => r.method === 'PUT'),
        [],
        `${what}: nothing sent`,
      );
      assert.deepEqual(await stored(id), before, `${what}: the service is untouched`);
      assert.equal(document.getText(), text, `${what}: the text is kept`);
      const diagnostics = await convaiDiagnostics(uri, (d) => d.some((each) => message.test(each.message)));
      const found = diagnostics.find((d) => message.test(d.message));
      assert.ok(found);
      assert.match(document.getText(found.range), at, `${what}: where the diagnostic sits`);
      if (what === 'a duplicate name')
        assert.equal(
          found.range.start.line,
          document
            .getText()
            .split('\n')
            .findIndex((line, index) => index > 3 && line.includes('"get_order_status"')),
          'on the second definition',
        );
    }
  });

  it("gives function_defs VS Code's JSON support from its schema: squiggles and completion while typing", async () => {
    const uri = partUri(part(id, 'function_defs'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const undescribed = Object.fromEntries(Object.entries(definition).filter(([key]) => key !== 'description'));
    await replaceText(document, `${JSON.stringify([undescribed], null, 2)}\n`);
    const squiggles = await diagnosticsWhen(
      uri,
      (d) => d.source !== 'ConvAI',
      (all) => all.some((d) => /description/.test(d.message)),
      'the JSON support to want a description',
    );
    assert.ok(squiggles.length > 0);
    await replaceText(document, '[\n  {\n    \n  }\n]\n');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      new vscode.Position(2, 4),
    );
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const key of ['type', 'name', 'description', 'parameters'])
      assert.ok(
        labels.some((label) => label.includes(key)),
        `${key} in ${labels.join(', ')}`,
      );
  });

  it('edits text parts as Markdown: an outline of their headings, folding', async () => {
    const document = await vscode.workspace.openTextDocument(partUri(part(id, 'user_prompt')));
    await replaceText(document, '# Task\n\nClassify {{question}}.\n\n## Rules\n\n- Be brief.\n');
    await vscode.window.showTextDocument(document);
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    assert.deepEqual(
      symbols.map((s) => [s.name, s.children.map((c) => c.name)]),
      [['# Task', ['## Rules']]],
    );
    const folds = await vscode.commands.executeCommand<vscode.FoldingRange[]>(
      'vscode.executeFoldingRangeProvider',
      document.uri,
    );
    assert.ok(folds.length > 0, 'the headings fold');
  });

  it("highlights placeholders in ConvAI texts only, never in the user's own Markdown files", async () => {
    const tokens = (uri: vscode.Uri): Thenable<vscode.SemanticTokens | undefined> =>
      vscode.commands.executeCommand('vscode.provideDocumentSemanticTokens', uri);
    const partDocument = await vscode.workspace.openTextDocument(partUri(part(id, 'assistant')));
    await replaceText(partDocument, 'Hi {{customer_name}}');
    const ours = await tokens(partDocument.uri);
    // One token: line 0, character 3, 17 long, type 0 (convaiPlaceholder).
    assert.deepEqual([...(ours?.data ?? [])], [0, 3, 17, 0, 0]);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run in a workspace');
    const own = vscode.Uri.joinPath(folder.uri, 'notes.md');
    await vscode.workspace.fs.writeFile(own, Buffer.from('Hi {{customer_name}}\n'));
    const ownDocument = await vscode.workspace.openTextDocument(own);
    assert.equal(ownDocument.languageId, 'markdown');
    assert.equal((await tokens(own))?.data.length ?? 0, 0);
    await vscode.workspace.fs.delete(own);
  });

  it('marks a duplicate function name while typing, before any save', async () => {
    const uri = partUri(part(id, 'function_defs'));
    const document = await vscode.workspace.openTextDocument(uri);
    const current = JSON.parse(document.getText()) as unknown[];
    await replaceText(document, `${JSON.stringify([...current, current[0]], null, 2)}\n`);
    const diagnostics = await convaiDiagnostics(uri, (d) => d.some((each) => /already the name/.test(each.message)));
    assert.equal(diagnostics[0]?.severity, vscode.DiagnosticSeverity.Error);
  });

  it("keeps a part dirty with the service's reason when the PUT fails", async () => {
    const uri = partUri(part(id, 'assistant'));
    const document = await vscode.workspace.openTextDocument(uri);
    const before = await stored(id);
    await replaceText(document, 'Refused by the service.');
    await injectFaults({
      match: `PUT /api/v1/ai_prompts/${id}`,
      status: 422,
      body: '{"errors":{"assistant":["is too long"]}}',
      contentType: 'application/json',
      count: 2,
    });
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.equal(document.getText(), 'Refused by the service.');
    assert.match(
      (await writeError(uri, document.getText())).message,
      /422 Unprocessable Entity: assistant: is too long/,
    );
    assert.deepEqual(await stored(id), before);
  });

  it('meets the conflict path when the field changed on the service, and keeps their change', async () => {
    const uri = partUri(part(id, 'system'));
    const document = await vscode.workspace.openTextDocument(uri);
    assert.ok(document.getText().length >= 0);
    await admin.update(prompts, id, { system: 'Changed on the service.' }, TENANT);
    const error = await writeError(uri, 'Mine.');
    assert.match(
      error.message,
      /Conflict: system of "Parts probe" \(AI Prompt \d+ of tenant 1 on parts\) changed on the service since it was read \(system\)/,
    );
    assert.equal((await stored(id)).system, 'Changed on the service.');
  });

  it('is not a conflict when another field changed on the service', async () => {
    const uri = partUri(part(id, 'assistant'));
    await vscode.workspace.openTextDocument(uri);
    await admin.update(prompts, id, { description: 'Changed elsewhere' }, TENANT);
    await vscode.workspace.fs.writeFile(uri, Buffer.from('Another field changed; mine is saved.'));
    const after = await stored(id);
    assert.equal(after.assistant, 'Another field changed; mine is saved.');
    assert.equal(after.description, 'Changed elsewhere');
  });

  it("shows a part's saved change in the prompt's open JSON document", async () => {
    const whole = await vscode.workspace.openTextDocument(
      documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id }),
    );
    const system = await vscode.workspace.openTextDocument(partUri(part(id, 'system')));
    await replaceText(system, 'Seen from the whole document.');
    assert.ok(await system.save());
    await documentText(
      whole,
      (text) => (JSON.parse(text) as JsonObject).system === 'Seen from the whole document.',
      'the whole document to show the saved part',
    );
    assert.equal(whole.isDirty, false);
  });

  it('shows a save of the whole document in the open parts', async () => {
    const whole = await vscode.workspace.openTextDocument(
      documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id }),
    );
    const assistant = await vscode.workspace.openTextDocument(partUri(part(id, 'assistant')));
    const value = JSON.parse(whole.getText()) as JsonObject;
    await replaceText(whole, `${JSON.stringify({ ...value, assistant: 'Saved from the whole document.' }, null, 2)}\n`);
    assert.ok(await whole.save());
    await documentText(
      assistant,
      (text) => text === 'Saved from the whole document.',
      'the part to show the saved whole document',
    );
  });

  it('makes a dirty whole document meet the conflict check after a part was saved, instead of undoing it', async () => {
    const wholeUri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      id,
    });
    const whole = await vscode.workspace.openTextDocument(wholeUri);
    const value = JSON.parse(whole.getText()) as JsonObject;
    const dirtyText = `${JSON.stringify({ ...value, description: 'edited in the whole document' }, null, 2)}\n`;
    await replaceText(whole, dirtyText);
    const system = await vscode.workspace.openTextDocument(partUri(part(id, 'system')));
    await replaceText(system, 'Saved through the part first.');
    assert.ok(await system.save());
    assert.equal(whole.isDirty, true, "the dirty whole document keeps the user's text");
    assert.equal(whole.getText(), dirtyText);
    const error = await writeError(wholeUri, dirtyText);
    assert.match(error.message, /Conflict: .*\(system\)/);
    assert.equal((await stored(id)).system, 'Saved through the part first.');
  });

  it('opens a part from the prompt with the Open Prompt Part command', async () => {
    const opened = await vscode.commands.executeCommand<string>('convai.openPromptPart', {
      uri: toResourceUriString({
        type: 'resource',
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'ai_prompts',
        id,
      }),
      part: 'settings',
    });
    assert.equal(opened, toResourceUriString(part(id, 'settings')));
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), partUri(part(id, 'settings')).toString());
  });

  it("offers the placeholders of the prompt's texts inside {{ in a text part, unsaved ones too", async () => {
    await replaceText(
      await vscode.workspace.openTextDocument(partUri(part(id, 'system'))),
      'You are {{assistant_name}}.',
    );
    await replaceText(
      await vscode.workspace.openTextDocument(partUri(part(id, 'user_prompt'))),
      '{{customer_name}}: {{question}}',
    );
    const document = await vscode.workspace.openTextDocument(partUri(part(id, 'assistant')));
    await replaceText(document, 'Hello {{');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      new vscode.Position(0, 8),
      '{',
    );
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const name of ['assistant_name', 'customer_name', 'question'])
      assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
  });

  it("appends one of the tenant's AI functions to function_defs with Add AI Function", async () => {
    const fn = await admin.create(
      kind('ai_functions'),
      { name: 'parts_probe_fn', description: 'Probe', parameters: { type: 'object', properties: {} } },
      TENANT,
    );
    const uri = toResourceUriString({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      id,
    });
    await vscode.commands.executeCommand('convai.refresh');
    const added = await vscode.commands.executeCommand<JsonObject>('convai.addAiFunction', {
      uri,
      name: 'parts_probe_fn',
    });
    assert.deepEqual(added, {
      type: 'function',
      name: 'parts_probe_fn',
      description: 'Probe',
      parameters: { type: 'object', properties: {} },
    });
    const document = await vscode.workspace.openTextDocument(partUri(part(id, 'function_defs')));
    const value = JSON.parse(document.getText()) as JsonObject[];
    assert.deepEqual(value.at(-1), added);
    assert.equal(document.isDirty, true, 'added, for the user to review and save');
    await admin.delete(kind('ai_functions'), fn.id as number, TENANT);
  });
});

describe('agent prompt texts as documents of their own', () => {
  let id = 0;
  before(async () => {
    await addConnection(CONNECTION);
    id = (
      await admin.create(
        agents,
        {
          name: 'Parts agent',
          configuration: {
            prompt: [
              { name: 'Greeting', prompt: 'Greet {{customer_name}}.', voice: 'alloy' },
              { name: 'Order help', prompt: 'Help with orders.', voice: 'echo' },
            ],
          },
        },
        TENANT,
      )
    ).id as number;
  });
  after(async () => {
    await removeConnection(CONNECTION);
  });
  afterEach(revertAll);

  it("opens an element's prompt text and saves it in the agent's configuration, the other element unchanged", async () => {
    const location: PartLocation = {
      type: 'agentPrompt',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'agents',
      id,
      element: 'Order help',
    };
    const document = await vscode.workspace.openTextDocument(partUri(location));
    assert.equal(document.getText(), 'Help with orders.');
    assert.equal(document.languageId, 'markdown');
    await replaceText(document, 'Help with orders, {{customer_name}}.');
    await clearRequests();
    assert.ok(await document.save());
    const puts = (await receivedRequests()).filter((r) => r.method === 'PUT');
    assert.deepEqual(
      puts.map((r) => [r.path, r.fields]),
      [[`/api/v1/agents/${id}`, ['configuration']]],
    );
    const elements = ((await admin.get(agents, id, TENANT)).configuration as JsonObject).prompt as JsonObject[];
    assert.deepEqual(
      elements.map((e) => [e.name, e.prompt]),
      [
        ['Greeting', 'Greet {{customer_name}}.'],
        ['Order help', 'Help with orders, {{customer_name}}.'],
      ],
    );
  });

  it("lists the elements as the agent's prompts folder", async () => {
    const entries = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/agents/${id}/prompts/`),
    );
    assert.deepEqual(
      entries.map(([name]) => name),
      ['Greeting.md', 'Order help.md'],
    );
  });

  it('says in the tree which elements it leaves out, and why', async () => {
    const odd = (
      await admin.create(
        agents,
        {
          name: 'Odd names agent',
          configuration: {
            prompt: [
              { name: 'Greeting', prompt: 'Hi.' },
              { name: '../../evil', prompt: 'x' },
              { name: 'a/b?c#d', prompt: 'y' },
              { name: 'gnp.\u202Eexe/x', prompt: 'z' },
            ],
          },
        },
        TENANT,
      )
    ).id as number;
    const own = await ownTree(CONNECTION, adminToken);
    try {
      const { provider } = own;
      const child = async (node: TreeNode | undefined, found: (node: TreeNode) => boolean): Promise<TreeNode> => {
        const children = await provider.getChildren(node);
        const match = children.find(found);
        assert.ok(match, `among ${children.length} children`);
        return match;
      };
      const connection = await child(undefined, (node) => node.connectionName === CONNECTION);
      const tenant = await child(connection, (node) => node instanceof TenantNode && node.tenantId === TENANT);
      const kindNode = await child(tenant, (node) => node instanceof KindNode && node.segment === 'agents');
      const agent = await child(kindNode, (node) => node instanceof ResourceNode && node.id === odd);
      const elements = await provider.getChildren(agent);
      assert.deepEqual(
        elements.filter((node) => node instanceof PartNode).map((node) => (node as PartNode).location),
        [
          {
            type: 'agentPrompt',
            connection: CONNECTION,
            tenantId: TENANT,
            segment: 'agents',
            id: odd,
            element: 'Greeting',
          },
        ],
      );
      const notices = elements.filter((node): node is NoticeNode => node instanceof NoticeNode);
      assert.equal(notices.length, 1, 'one notice names what is left out');
      const item = await provider.getTreeItem(notices[0] as NoticeNode);
      assert.match(
        String(item.label),
        /^Not listed: 3 prompt elements "\.\.\/\.\.\/evil", "a\/b\?c#d", "gnp\.\\u202Eexe\/x"\. .*cannot name a document: rename it/,
      );
      assert.doesNotMatch(String(item.label), /\u202E/, 'a right-to-left override shows as its escape');
    } finally {
      own.dispose();
      await admin.delete(agents, odd, TENANT);
    }
  });

  it('says which element is missing when it was renamed', async () => {
    const location: PartLocation = {
      type: 'agentPrompt',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'agents',
      id,
      element: 'No such element',
    };
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.readFile(partUri(location))),
      /no prompt element named "No such element"/,
    );
  });
});
