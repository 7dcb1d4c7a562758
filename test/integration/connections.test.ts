import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addConnection, adminToken, rejection, removeConnection, serviceUrl, startRecorder } from './support';

/** A second loopback server that records whether a token reached it. */
async function recorder(): Promise<{
  url: string;
  authorizations: () => Array<string | undefined>;
  close(): Promise<void>;
}> {
  const server = await startRecorder({ status: 200, contentType: 'application/json', body: () => '[]' });
  return {
    url: server.url,
    authorizations: () => server.received.map((r) => r.headers.authorization),
    close: () => server.close(),
  };
}

function storedConnections(): unknown[] {
  return vscode.workspace.getConfiguration('convai').inspect<unknown[]>('connections')?.globalValue ?? [];
}

describe('connections', () => {
  it('adds a connection to user settings with its token in secret storage only', async () => {
    await addConnection('conn-add', { readOnly: true });
    try {
      const stored = storedConnections();
      assert.deepEqual(
        stored.find((c) => (c as { name: string }).name === 'conn-add'),
        { name: 'conn-add', baseUrl: serviceUrl, readOnly: true },
      );
      assert.ok(!JSON.stringify(stored).includes(adminToken), 'no token in settings');
      const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://conn-add/tenants/'));
      assert.ok(
        entries.some(([name]) => name === '1.json'),
        'the token works',
      );
    } finally {
      await removeConnection('conn-add');
    }
    assert.ok(!storedConnections().some((c) => (c as { name: string }).name === 'conn-add'), 'removed');
  });

  it('rejects a bad name, URL or token with a message naming the field', async () => {
    const bad = async (args: Record<string, unknown>, pattern: RegExp): Promise<void> => {
      const error = await rejection(
        vscode.commands.executeCommand('convai.addConnection', {
          name: 'ok-name',
          baseUrl: serviceUrl,
          token: 't',
          ...args,
        }),
      );
      assert.match(error.message, pattern);
    };
    await bad({ name: 'Bad Name' }, /name must be 1 to 40 characters/);
    await bad({ baseUrl: 'ftp://x' }, /baseUrl .* must start with http/);
    await bad({ token: '' }, /token must be a non-empty string/);
    await bad({ tenantId: 1.5 }, /tenantId must be a whole number/);
  });

  it('asks for a new token when a connection moves to another origin', async () => {
    const elsewhere = await recorder();
    try {
      await addConnection('conn-move');
      const settings = vscode.workspace.getConfiguration('convai');
      const moved = storedConnections().map((c) =>
        (c as { name: string }).name === 'conn-move' ? { name: 'conn-move', baseUrl: elsewhere.url } : c,
      );
      await settings.update('connections', moved, vscode.ConfigurationTarget.Global);
      const error = await rejection(vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://conn-move/tenants/')));
      assert.match(error.message, /no token is set/);
      assert.deepEqual(elsewhere.authorizations(), [], 'the old token never reached the new origin');
      await vscode.commands.executeCommand('convai.setToken', { name: 'conn-move', token: 'token-for-elsewhere' });
      await vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://conn-move/tenants/'));
      assert.deepEqual(elsewhere.authorizations(), ['Bearer token-for-elsewhere']);
    } finally {
      await removeConnection('conn-move');
      await elsewhere.close();
    }
  });

  it('reports a wrong token as unauthorized, and works once the token is set', async () => {
    await addConnection('conn-token', { token: 'wrong-token' });
    try {
      const uri = vscode.Uri.parse('convai://conn-token/tenants/');
      const error = await rejection(vscode.workspace.fs.readDirectory(uri));
      assert.match(error.message, /401 Unauthorized/);
      assert.ok(!error.message.includes('wrong-token'), 'the token is not in the message');
      await vscode.commands.executeCommand('convai.setToken', { name: 'conn-token', token: adminToken });
      assert.ok((await vscode.workspace.fs.readDirectory(uri)).length > 0);
    } finally {
      await removeConnection('conn-token');
    }
  });

  it('ignores connections from workspace settings, so a repository cannot redirect a token', async () => {
    const elsewhere = await recorder();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run with a workspace folder');
    const settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    try {
      await addConnection('conn-trusted');
      // A harmless setting beside it proves VS Code has read the workspace file.
      const loaded = new Promise<void>((resolve) => {
        const listener = vscode.workspace.onDidChangeConfiguration((event) => {
          if (!event.affectsConfiguration('editor.tabSize')) return;
          listener.dispose();
          resolve();
        });
      });
      fs.writeFileSync(
        settingsFile,
        JSON.stringify({
          'editor.tabSize': 7,
          'convai.connections': [
            { name: 'conn-trusted', baseUrl: elsewhere.url },
            { name: 'evil', baseUrl: elsewhere.url },
          ],
        }),
      );
      await loaded;
      await vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://conn-trusted/tenants/'));
      await rejection(vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://evil/tenants/')));
      assert.deepEqual(elsewhere.authorizations(), [], 'the workspace could not send the token elsewhere');
    } finally {
      fs.rmSync(path.dirname(settingsFile), { recursive: true, force: true });
      await removeConnection('conn-trusted');
      await elsewhere.close();
    }
  });
});
