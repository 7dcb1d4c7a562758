import type * as vscode from 'vscode';
import { messageOf } from '../core/text';

interface StoredToken {
  origin: string;
  token: string;
}

const KEY_PREFIX = 'convai.token.';

/**
 * Tokens in SecretStorage, each bound to the exact origin it was set for:
 * when a connection's baseUrl moves to another origin, its token is not
 * sent there until it is set again.
 */
export class TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get onDidChange(): vscode.Event<vscode.SecretStorageChangeEvent> {
    return this.secrets.onDidChange;
  }

  async get(name: string, baseUrl: string): Promise<string | undefined> {
    const stored = await this.read(name);
    return stored && stored.origin === new URL(baseUrl).origin ? stored.token : undefined;
  }

  /** Whether a token exists but belongs to another origin. */
  async isForAnotherOrigin(name: string, baseUrl: string): Promise<boolean> {
    const stored = await this.read(name);
    return !!stored && stored.origin !== new URL(baseUrl).origin;
  }

  async set(name: string, baseUrl: string, token: string): Promise<void> {
    const value: StoredToken = { origin: new URL(baseUrl).origin, token };
    try {
      await this.secrets.store(KEY_PREFIX + name, JSON.stringify(value));
    } catch (error) {
      // Never fall back to plain text: without a keychain there is no token.
      throw new Error(
        `The token for "${name}" could not be stored in the system keychain (${messageOf(error)}). ` +
          'Make a keyring available to VS Code (for example gnome-keyring, or "password-store" in argv.json) and set the token again.',
      );
    }
  }

  async delete(name: string): Promise<void> {
    await this.secrets.delete(KEY_PREFIX + name);
  }

  private async read(name: string): Promise<StoredToken | undefined> {
    const raw = await this.secrets.get(KEY_PREFIX + name);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredToken>;
      return typeof parsed.origin === 'string' && typeof parsed.token === 'string'
        ? { origin: parsed.origin, token: parsed.token }
        : undefined;
    } catch {
      return undefined;
    }
  }
}

export function validateToken(token: unknown): string {
  if (typeof token !== 'string' || token.trim() === '') {
    throw new Error('token must be a non-empty string.');
  }
  if (/[\r\n]/.test(token)) {
    throw new Error('token must be a single line.');
  }
  return token.trim();
}
