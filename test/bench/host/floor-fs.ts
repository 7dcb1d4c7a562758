// The floor of open, save and listing: a minimal file system provider over the same paths as `convai:`, doing only
// the round trips a safe editor of the service cannot do without. readFile: one GET. readDirectory: one GET of the
// list. stat: no request. writeFile: a GET of the service's current state, compared with what was read (the
// conflict check a safe save needs), then one PUT.
import * as vscode from 'vscode';
import type { FloorClient, JsonRecord } from './floor-client';

/** The document text: the service's detail object as two-space JSON, as in `convai:` documents. */
function documentText(detail: object): string {
  return `${JSON.stringify(detail, null, 2)}\n`;
}

function promptFile(uri: vscode.Uri): { tenantId: number; id: number } {
  const match = /^\/tenants\/(\d+)\/ai_prompts\/(\d+)\.json$/.exec(uri.path);
  if (!match) throw vscode.FileSystemError.FileNotFound(uri);
  return { tenantId: Number(match[1]), id: Number(match[2]) };
}

function promptFolder(uri: vscode.Uri): number {
  const match = /^\/tenants\/(\d+)\/ai_prompts\/?$/.exec(uri.path);
  if (!match) throw vscode.FileSystemError.FileNotADirectory(uri);
  return Number(match[1]);
}

export class FloorFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  /** The text each document was read as: the base of its save's conflict check. */
  private readonly bases = new Map<string, string>();

  constructor(private readonly client: FloorClient) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    // A constant mtime: VS Code then never sees a file changed under an editor, and no request is needed.
    const type = uri.path.endsWith('.json') ? vscode.FileType.File : vscode.FileType.Directory;
    return { type, ctime: 0, mtime: 0, size: 0 };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const prompts = await this.client.prompts(promptFolder(uri));
    // The same entries as `convai:` gives: each prompt's document and the folder of its parts.
    return prompts.flatMap(({ id }): [string, vscode.FileType][] => [
      [`${id}.json`, vscode.FileType.File],
      [String(id), vscode.FileType.Directory],
    ]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { tenantId, id } = promptFile(uri);
    const text = documentText(await this.client.prompt(tenantId, id));
    this.bases.set(uri.toString(), text);
    return Buffer.from(text, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { tenantId, id } = promptFile(uri);
    const current = documentText(await this.client.prompt(tenantId, id));
    if (current !== this.bases.get(uri.toString()))
      throw new vscode.FileSystemError(`${uri.toString()} changed on the service since it was read`);
    const saved = await this.client.updatePrompt(
      tenantId,
      id,
      JSON.parse(Buffer.from(content).toString('utf8')) as JsonRecord,
    );
    this.bases.set(uri.toString(), documentText(saved));
  }

  delete(): never {
    throw onlyPrompts();
  }

  rename(): never {
    throw onlyPrompts();
  }

  createDirectory(): never {
    throw onlyPrompts();
  }
}

function onlyPrompts(): vscode.FileSystemError {
  return vscode.FileSystemError.NoPermissions('the floor file system only reads, lists and saves prompts');
}
