import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitUntil } from '../harness/wait';
import { workbenchLogs } from './support';

const extensionId = 'convai.convai-config';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function ids(entries: unknown, key: 'command' | 'id', where: string): string[] {
  if (entries === undefined) return [];
  assert.ok(Array.isArray(entries), `${where} is not an array`);
  return entries.map((entry: unknown) => {
    const id = field(entry, key);
    assert.ok(typeof id === 'string', `${where} holds an entry without a string ${key}: ${JSON.stringify(entry)}`);
    return id;
  });
}

function contributedCommandIds(extension: vscode.Extension<unknown>): string[] {
  const contributes = field(extension.packageJSON, 'contributes');
  return ids(field(contributes, 'commands'), 'command', 'contributes.commands');
}

function contributedViewIds(extension: vscode.Extension<unknown>): string[] {
  const views = field(field(extension.packageJSON, 'contributes'), 'views');
  if (views === undefined) return [];
  return Object.entries(views as Record<string, unknown>).flatMap(([container, entries]) =>
    ids(entries, 'id', `contributes.views.${container}`),
  );
}

function theExtension(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(extensionId);
  assert.ok(extension, `${extensionId} is not loaded`);
  return extension;
}

describe('extension activation', () => {
  it('is loaded from the development path', () => {
    assert.equal(theExtension().id, extensionId);
  });

  it('activates when its view container is opened', async () => {
    const extension = theExtension();
    await vscode.commands.executeCommand('workbench.view.extension.convai');
    // VS Code offers no event for another extension's activation.
    await waitUntil(() => extension.isActive, `${extensionId} to activate`);
  });

  it('registers exactly the convai.* commands it contributes', async () => {
    const extension = theExtension();
    // Not relying on the previous test having activated it, so that this one fails only for its own reason.
    await extension.activate();
    const contributed = contributedCommandIds(extension);
    // VS Code itself registers `<view id>.focus` and the like for every contributed view.
    const viewPrefixes = contributedViewIds(extension).map((id) => `${id}.`);
    const registered = (await vscode.commands.getCommands(true)).filter(
      (id) => id.startsWith('convai.') && !viewPrefixes.some((prefix) => id.startsWith(prefix)),
    );
    assert.deepEqual(
      contributed.filter((id) => !registered.includes(id)),
      [],
      'contributed in package.json but not registered',
    );
    assert.deepEqual(
      registered.filter((id) => !contributed.includes(id)),
      [],
      'registered but not contributed in package.json',
    );
  });

  it('names the schemes of every document selector, so VS Code logs no warning about one without', async () => {
    await theExtension().activate();
    const hostLogs = workbenchLogs((file) => /exthost/i.test(file));
    // The warning is an info line; the log holds this extension's info lines, so its absence means something.
    assert.match(
      hostLogs,
      new RegExp(`${extensionId.replace('.', '\\.')}`),
      'the extension host log names the extension',
    );
    assert.doesNotMatch(hostLogs, /uses a document selector without scheme/);
  });
});
