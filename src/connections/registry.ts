import * as vscode from 'vscode';
import { ServiceClient } from '../core/client';
import type { JsonObject } from '../core/json';
import { ServiceError } from '../core/errors';
import { kindById } from '../core/resources';
import type { Log } from '../log';
import { VS_CODE_ADVICE } from '../shared/advice';
import {
  NETWORK_SETTINGS,
  networkSettings,
  networkSettingsKey,
  readConnections,
  requestTimeoutMs,
  writeConnections,
  type Connection,
} from '../shared/settings';
import { TokenStore } from './tokens';
import { DisposableStore } from '../core/disposable-store';

/**
 * The configured connections and one service client per connection, each
 * with its own keep-alive pool, proxy and CAs. Clients are rebuilt when
 * their settings change, the proxy and certificate settings included.
 */
export class Connections implements vscode.Disposable {
  private connections: Connection[] = [];
  /** Clients by connection name, with the settings they were built from. */
  private readonly clients = new Map<string, { client: ServiceClient; settings: string }>();
  private readonly tokenCache = new Map<string, Promise<string | undefined>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables = new DisposableStore();
  readonly onDidChange = this.changed.event;
  readonly tokens: TokenStore;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly log: Log,
  ) {
    this.tokens = new TokenStore(secrets);
    this.reload();
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        const settings = ['convai.connections', 'convai.requestTimeoutSeconds', ...NETWORK_SETTINGS];
        if (settings.some((setting) => event.affectsConfiguration(setting))) {
          this.reload();
        }
      }),
      this.tokens.onDidChange(() => {
        this.tokenCache.clear();
        this.changed.fire();
      }),
    );
  }

  list(): readonly Connection[] {
    return this.connections;
  }

  get(name: string): Connection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  require(name: string): Connection {
    const connection = this.get(name);
    if (!connection) {
      throw new Error(`There is no connection named "${name}". Add it with "ConvAI: Add Connection".`);
    }
    return connection;
  }

  client(name: string): ServiceClient {
    const connection = this.require(name);
    const existing = this.clients.get(name);
    if (existing) return existing.client;
    const client = new ServiceClient({
      baseUrl: connection.baseUrl,
      name,
      token: () => this.token(connection),
      timeoutMs: requestTimeoutMs(),
      network: () => networkSettings(connection.baseUrl),
      log: this.log.for(`http:${name}`),
      advice: VS_CODE_ADVICE,
    });
    this.clients.set(name, { client, settings: clientSettings(connection) });
    return client;
  }

  /** The tenants the connection's token may see: all of them, or, on a 403 for the list, the connection's tenantId. */
  async visibleTenants(name: string): Promise<JsonObject[]> {
    const connection = this.require(name);
    try {
      return await this.client(name).list(kindById('tenant'));
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403 && connection.tenantId !== undefined) {
        return [{ id: connection.tenantId, name: `Tenant ${connection.tenantId}` }];
      }
      throw error;
    }
  }

  async hasToken(connection: Connection): Promise<boolean> {
    return (await this.token(connection)) !== undefined;
  }

  /** Adds a connection, or replaces the one of the same name, with its token. */
  async upsert(connection: Connection, token?: string): Promise<void> {
    if (token !== undefined) {
      await this.tokens.set(connection.name, connection.baseUrl, token);
    }
    const others = this.connections.filter((c) => c.name !== connection.name);
    await writeConnections([...others, connection]);
    this.reload();
  }

  async remove(name: string): Promise<void> {
    this.require(name);
    await writeConnections(this.connections.filter((c) => c.name !== name));
    await this.tokens.delete(name);
    this.reload();
  }

  async setToken(name: string, token: string): Promise<void> {
    const connection = this.require(name);
    await this.tokens.set(name, connection.baseUrl, token);
    this.tokenCache.delete(name);
  }

  dispose(): void {
    this.disposeClients();
    this.disposables.dispose();
  }

  private token(connection: Connection): Promise<string | undefined> {
    let token = this.tokenCache.get(connection.name);
    if (!token) {
      token = this.tokens.get(connection.name, connection.baseUrl);
      this.tokenCache.set(connection.name, token);
    }
    return token;
  }

  private reload(): void {
    const { connections, problems } = readConnections();
    for (const problem of problems) this.log.for('connections').warn(problem);
    this.connections = connections;
    // Only a connection whose settings changed gets a new client: closing one
    // that other work is using would fail those requests.
    for (const [name, { client, settings }] of this.clients) {
      const connection = this.get(name);
      if (!connection || clientSettings(connection) !== settings) {
        void client.close();
        this.clients.delete(name);
        this.tokenCache.delete(name);
      }
    }
    this.changed.fire();
  }

  private disposeClients(): void {
    for (const { client } of this.clients.values()) void client.close();
    this.clients.clear();
  }
}

function clientSettings(connection: Connection): string {
  return JSON.stringify([connection.baseUrl, requestTimeoutMs(), networkSettingsKey()]);
}
