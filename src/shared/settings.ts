import * as vscode from 'vscode';
import { parseBaseUrl } from '../core/base-url';
import { chooseProxy, readCaCertificates, type NetworkSettings } from '../core/network';
import { CONNECTION_NAME } from '../core/uri';
import { CA_SETTING, VS_CODE_ADVICE } from './advice';
import { messageOf } from '../core/text';
import { LIMITS, withinLimit, type Limit } from '../core/limits';

export interface Connection {
  readonly name: string;
  readonly baseUrl: string;
  readonly tenantId?: number;
  readonly readOnly: boolean;
}

const SECTION = 'convai';

/**
 * Connections come from user settings only: a cloned repository's
 * `.vscode/settings.json` must not be able to point a token elsewhere
 * (the setting is also `application`-scoped in package.json).
 */
export function readConnections(): { connections: Connection[]; problems: string[] } {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('connections');
  const raw = inspected?.globalValue ?? [];
  const problems: string[] = [];
  const connections: Connection[] = [];
  if (!Array.isArray(raw)) {
    return { connections, problems: ['convai.connections must be an array of connections.'] };
  }
  raw.forEach((entry: unknown, index) => {
    try {
      const connection = validateConnection(entry);
      if (connections.some((c) => c.name === connection.name)) {
        throw new Error(`the name "${connection.name}" is used twice; names must be unique`);
      }
      connections.push(connection);
    } catch (error) {
      problems.push(`convai.connections[${index}] is ignored: ${messageOf(error)}`);
    }
  });
  return { connections, problems };
}

export async function writeConnections(connections: readonly Connection[]): Promise<void> {
  const stored = connections.map(({ name, baseUrl, tenantId, readOnly }) => ({
    name,
    baseUrl,
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(readOnly ? { readOnly } : {}),
  }));
  await vscode.workspace.getConfiguration(SECTION).update('connections', stored, vscode.ConfigurationTarget.Global);
}

export function validateName(name: unknown): string {
  if (typeof name !== 'string' || !CONNECTION_NAME.test(name)) {
    throw new Error(`name must be 1 to 40 characters of a-z, 0-9 and "-" (got ${JSON.stringify(name)}).`);
  }
  return name;
}

export function validateConnection(entry: unknown): Connection {
  if (typeof entry !== 'object' || entry === null) {
    throw new Error('a connection must be an object with "name" and "baseUrl".');
  }
  const { name, baseUrl, tenantId, readOnly } = entry as Record<string, unknown>;
  validateName(name);
  if (typeof baseUrl !== 'string') {
    throw new Error('baseUrl must be a string such as "https://config.example.com".');
  }
  parseBaseUrl(baseUrl, VS_CODE_ADVICE);
  if (tenantId !== undefined && (typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId) || tenantId < 0)) {
    throw new Error(`tenantId must be a whole number (got ${JSON.stringify(tenantId)}).`);
  }
  if (readOnly !== undefined && typeof readOnly !== 'boolean') {
    throw new Error(`readOnly must be true or false (got ${JSON.stringify(readOnly)}).`);
  }
  return { name: name as string, baseUrl, tenantId: tenantId as number | undefined, readOnly: readOnly === true };
}

/** A number setting as its row in core/limits.ts says: its default there, and held within its bounds. */
function limitSetting(limit: Limit & { setting: { name: string } }): number {
  return withinLimit(limit, vscode.workspace.getConfiguration().get<unknown>(limit.setting.name));
}

export function requestTimeoutMs(): number {
  return limitSetting(LIMITS.requestTimeout) * 1000;
}

/** Prompt test requests at once (convai.testConcurrency). */
export function testConcurrency(): number {
  return limitSetting(LIMITS.testConcurrency);
}

/** Above this many requests a Testing view run could send, it asks first (convai.confirmRequestsAbove). */
export function confirmRequestsAbove(): number {
  return limitSetting(LIMITS.confirmRequestsAbove);
}

/** The most children the ConvAI view lists under one node (convai.treePageSize). */
export function treePageSize(): number {
  return limitSetting(LIMITS.treePageSize);
}

/** The setting treePageSize() reads, for onDidChangeConfiguration. */
export const TREE_PAGE_SIZE_SETTING = LIMITS.treePageSize.setting.name;

/** Where prompt test suites without a target run (convai.testTarget). */
export function testTarget(): { connection?: string; tenantId?: number } {
  const value = vscode.workspace.getConfiguration(SECTION).get<unknown>('testTarget');
  if (typeof value !== 'object' || value === null) return {};
  const { connection, tenantId } = value as Record<string, unknown>;
  return {
    connection: typeof connection === 'string' ? connection : undefined,
    tenantId: typeof tenantId === 'number' ? tenantId : undefined,
  };
}

/** What a prompt test runs when a prompt has unsaved edits (convai.tests.unsavedEdits): them as a trial, or the saved version. */
export function unsavedEdits(): 'trial' | 'saved' {
  return vscode.workspace.getConfiguration(SECTION).get<unknown>('tests.unsavedEdits') === 'saved' ? 'saved' : 'trial';
}

export function uploadOnAutoSave(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('uploadOnAutoSave', false);
}

/** The settings a connection's network route is made of; a client is rebuilt when one changes. */
export const NETWORK_SETTINGS = [
  'http.proxy',
  'http.noProxy',
  'http.proxyStrictSSL',
  'http.proxySupport',
  CA_SETTING,
] as const;

/** The raw values of NETWORK_SETTINGS, to tell whether a client's route is out of date. */
export function networkSettingsKey(): string {
  const http = vscode.workspace.getConfiguration('http');
  return JSON.stringify([
    http.get('proxy'),
    http.get('noProxy'),
    http.get('proxyStrictSSL'),
    http.get('proxySupport'),
    caPaths(),
  ]);
}

/**
 * How requests to `baseUrl` travel: VS Code's proxy settings, else the
 * environment's (http.proxySupport "off" turns proxies off), and the extra
 * CAs. Throws a NetworkConfigError naming a CA file that cannot be used.
 */
export function networkSettings(baseUrl: string): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const ca = readCaCertificates(caPaths(), CA_SETTING);
  const proxyStrictSSL = http.get<boolean>('proxyStrictSSL', true);
  if (http.get<string>('proxySupport') === 'off') {
    return { noProxy: [], proxyStrictSSL, ca };
  }
  const noProxy = http.get<unknown>('noProxy');
  const proxy = chooseProxy(
    {
      proxy: http.get<string>('proxy') || undefined,
      noProxy: Array.isArray(noProxy) ? noProxy.filter((entry): entry is string => typeof entry === 'string') : [],
    },
    process.env,
    parseBaseUrl(baseUrl),
  );
  return { ...proxy, proxyStrictSSL, ca };
}

/**
 * User settings only, like convai.connections: a workspace must not make the
 * extension trust a CA of its choosing (the setting is also `application`-scoped).
 */
function caPaths(): unknown {
  return vscode.workspace.getConfiguration(SECTION).inspect<unknown>('caCertificates')?.globalValue ?? [];
}
