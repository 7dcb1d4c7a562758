import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { TokenStore } from '../../src/connections/tokens';

/** A secret storage without a keychain behind it, as on a headless Linux without a keyring. */
function brokenSecrets(): vscode.SecretStorage & { writes: number } {
  const storage = {
    writes: 0,
    get: async () => undefined,
    keys: async () => [],
    store: async () => {
      storage.writes++;
      throw new Error('Cannot create an item in a locked collection');
    },
    delete: async () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
  };
  return storage as unknown as vscode.SecretStorage & { writes: number };
}

describe('tokens without a keychain', () => {
  it('says that the token could not be stored and how to fix it, and keeps no copy', async () => {
    const secrets = brokenSecrets();
    const tokens = new TokenStore(secrets);
    await assert.rejects(tokens.set('prod', 'https://config.example.com', 'sentinel-token'), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.match(error.message, /could not be stored in the system keychain/);
      assert.match(error.message, /keyring/);
      assert.ok(!error.message.includes('sentinel-token'));
      return true;
    });
    assert.equal(await tokens.get('prod', 'https://config.example.com'), undefined, 'no plain-text fallback');
  });

  it('gives a token only to the origin it was set for', async () => {
    const stored = new Map<string, string>();
    const secrets = {
      get: async (key: string) => stored.get(key),
      store: async (key: string, value: string) => void stored.set(key, value),
      delete: async (key: string) => void stored.delete(key),
      keys: async () => [...stored.keys()],
      onDidChange: () => ({ dispose: () => undefined }),
    } as unknown as vscode.SecretStorage;
    const tokens = new TokenStore(secrets);
    await tokens.set('prod', 'https://config.example.com/base', 't-1');
    assert.equal(await tokens.get('prod', 'https://config.example.com/other'), 't-1');
    assert.equal(await tokens.get('prod', 'https://config.example.com:8443'), undefined);
    assert.equal(await tokens.get('prod', 'http://config.example.com'), undefined);
    assert.equal(await tokens.isForAnotherOrigin('prod', 'https://evil.example.com'), true);
  });
});
