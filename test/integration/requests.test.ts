import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { rejection, startRecorder, type Recorder } from './support';

/** A loopback API that records what it received and answers JSON. */
function recorder(): Promise<Recorder> {
  return startRecorder({
    status: 201,
    contentType: 'application/json',
    headers: { 'x-request-id': 'r-1' },
    body: () => '{"booked":true}',
  });
}

function definition(base: string, apiKey = 'literal-key-123'): Record<string, unknown> {
  return {
    name: 'Book table',
    url: `${base}/restaurants/{{restaurant}}/bookings`,
    method: 'POST',
    api_key: apiKey,
    headers: { Authorization: 'Bearer {{api_key}}', 'X-Party': '{{people}}' },
    function_definition: {
      type: 'function',
      name: 'book_table',
      description: 'Books a table',
      parameters: {
        type: 'object',
        properties: {
          restaurant: { type: 'string', description: 'Name' },
          people: { type: 'integer', description: 'Guests' },
          note: { type: 'object', description: 'Extra' },
        },
      },
    },
    fixed_parameters: { source: 'voice-bot' },
    say_before: 'Let me book that.',
  };
}

const ARGS = { restaurant: 'Chez Ada', people: 4, note: { allergies: ['nuts'] } };

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run with a workspace folder');
  return vscode.Uri.joinPath(folder.uri, name);
}

async function writeFile(name: string, text: string): Promise<vscode.Uri> {
  const uri = workspaceFile(name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  return uri;
}

/** Resolves with the ConvAI diagnostics of a document once there are some. */
function convaiDiagnostics(uri: vscode.Uri): Promise<vscode.Diagnostic[]> {
  const current = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'ConvAI');
  if (current().length > 0) return Promise.resolve(current());
  return new Promise((resolve) => {
    const listener = vscode.languages.onDidChangeDiagnostics(() => {
      if (current().length === 0) return;
      listener.dispose();
      resolve(current());
    });
  });
}

describe('API request definitions', () => {
  let api: Recorder;
  before(async () => {
    api = await recorder();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.close();
  });

  it('previews a definition passed as an object, with the API Key masked', async () => {
    const shown = await vscode.commands.executeCommand<Record<string, unknown>>('convai.previewRequest', {
      definition: definition(api.url),
      arguments: ARGS,
    });
    assert.deepEqual(shown, {
      method: 'POST',
      url: `${api.url}/restaurants/Chez%20Ada/bookings`,
      headers: { Authorization: 'Bearer ••••••', 'X-Party': '4', 'Content-Type': 'application/json' },
      body: { note: { allergies: ['nuts'] }, source: 'voice-bot' },
    });
  });

  it('previews a definition file the same way, and sends no body for a GET without dynamic arguments', async () => {
    const uri = await writeFile(
      'book.apirequest.json',
      `// comments are allowed\n${JSON.stringify(definition(api.url), null, 2)}\n`,
    );
    const fromFile = await vscode.commands.executeCommand('convai.previewRequest', {
      uri: uri.toString(),
      arguments: ARGS,
    });
    assert.deepEqual(
      fromFile,
      await vscode.commands.executeCommand('convai.previewRequest', {
        definition: definition(api.url),
        arguments: ARGS,
      }),
    );
    const get = { ...definition(api.url), url: `${api.url}/status`, method: 'GET', headers: {}, api_key: '' };
    const shown = await vscode.commands.executeCommand<Record<string, unknown>>('convai.previewRequest', {
      definition: get,
      arguments: {},
    });
    assert.deepEqual(shown, { method: 'GET', url: `${api.url}/status`, headers: {} });
  });

  it('sends what the preview shows, with the real API Key, and returns the response', async () => {
    const args = {
      uri: (await writeFile('send.apirequest.json', JSON.stringify(definition(api.url)))).toString(),
      arguments: ARGS,
    };
    const shown = await vscode.commands.executeCommand<{
      method: string;
      url: string;
      headers: Record<string, string>;
      body: unknown;
    }>('convai.previewRequest', args);
    const before = api.received.length;
    const response = await vscode.commands.executeCommand<{
      status: number;
      headers: Record<string, string>;
      body: unknown;
    }>('convai.sendRequest', args);
    assert.equal(response.status, 201);
    assert.equal(response.headers['x-request-id'], 'r-1');
    assert.deepEqual(response.body, { booked: true });
    const got = api.received[before];
    assert.ok(got);
    assert.equal(got.method, shown.method);
    assert.equal(`${api.url}${got.url ?? ''}`, shown.url);
    assert.deepEqual(JSON.parse(got.body), shown.body);
    assert.equal(got.headers['x-party'], shown.headers['X-Party']);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers.authorization, 'Bearer literal-key-123');
  });

  it('takes the API Key from secret storage or the environment', async () => {
    await vscode.commands.executeCommand('convai.storeRequestSecret', {
      name: 'booking-key',
      value: 'from-secret-storage',
    });
    const before = api.received.length;
    await vscode.commands.executeCommand('convai.sendRequest', {
      definition: definition(api.url, '${secret:booking-key}'),
      arguments: ARGS,
    });
    assert.equal(api.received[before]?.headers.authorization, 'Bearer from-secret-storage');
    process.env.CONVAI_TEST_BOOKING_KEY = 'from-the-environment';
    await vscode.commands.executeCommand('convai.sendRequest', {
      definition: definition(api.url, '${env:CONVAI_TEST_BOOKING_KEY}'),
      arguments: ARGS,
    });
    assert.equal(api.received[before + 1]?.headers.authorization, 'Bearer from-the-environment');
    const missing = await rejection(
      vscode.commands.executeCommand('convai.sendRequest', {
        definition: definition(api.url, '${secret:nobody-stored-this}'),
        arguments: ARGS,
      }),
    );
    assert.match(missing.message, /not stored yet/);
  });

  it('refuses an invalid definition object, naming the field', async () => {
    const noFunction = definition(api.url);
    delete noFunction.function_definition;
    const error = await rejection(
      vscode.commands.executeCommand('convai.previewRequest', { definition: noFunction, arguments: {} }),
    );
    assert.match(error.message, /function_definition/);
  });

  it('marks a placeholder that names no parameter, where it is', async () => {
    const text = JSON.stringify({ ...definition(api.url), url: `${api.url}/cities/{{city}}` }, null, 2);
    const uri = await writeFile('unknown-placeholder.apirequest.json', text);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'convai-apirequest');
    const [problem] = (await convaiDiagnostics(uri)).filter((d) => document.getText(d.range).includes('{{city}}'));
    assert.ok(problem, 'a diagnostic covers {{city}}');
    assert.equal(document.getText(problem.range), '{{city}}');
  });

  it('marks a function definition whose parameters have no properties', async () => {
    const broken = definition(api.url);
    broken.function_definition = {
      type: 'function',
      name: 'book_table',
      description: 'Books a table',
      parameters: { type: 'object' },
    };
    broken.url = `${api.url}/bookings`;
    broken.headers = {};
    const uri = await writeFile('no-properties.apirequest.json', JSON.stringify(broken, null, 2));
    const document = await vscode.workspace.openTextDocument(uri);
    const problems = await convaiDiagnostics(uri);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('"parameters"'));
    assert.ok(
      problems.some((d) => /properties/.test(d.message) && d.range.start.line === line),
      JSON.stringify(problems.map((d) => [d.message, d.range.start.line])),
    );
  });

  it('completes parameter names inside {{', async () => {
    const text = JSON.stringify({ ...definition(api.url), url: `${api.url}/restaurants/{{` }, null, 2);
    const uri = await writeFile('complete.apirequest.json', text);
    const document = await vscode.workspace.openTextDocument(uri);
    const position = document.positionAt(document.getText().indexOf('{{') + 2);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      position,
      '{',
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const name of ['restaurant', 'people', 'note'])
      assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
  });
});
