// The one change service (docs/architecture.md, "The change service"): what a push, a promotion, a delete and Refresh
// drop, reload and announce, seen through the extension's change event and the local service's request log.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ServiceClient } from '../../src/core/client';
import type { ConvaiApi } from '../../src/extension';
import type { ChangeReport } from '../../src/documents/changes';
import type { JsonObject } from '../../src/core/json';
import { mostInFlight } from '../service/request-log';
import {
  addConnection,
  admin,
  clearRequests,
  documentText,
  documentUri,
  kind,
  largeService,
  receivedRequests,
  removeConnection,
  replaceText,
  revertAll,
} from './support';

const CONNECTION = 'changes';
const LARGE = 'changes-large';

async function api(): Promise<ConvaiApi> {
  const extension = vscode.extensions.getExtension<ConvaiApi>('convai.convai-config');
  assert.ok(extension, 'the extension is loaded');
  return extension.activate();
}

/** Every change event fired while `work` runs. */
async function reportsDuring(work: () => Thenable<unknown>): Promise<ChangeReport[]> {
  const reports: ChangeReport[] = [];
  const listener = (await api()).onDidChange((report) => reports.push(report));
  try {
    await work();
  } finally {
    listener.dispose();
  }
  return reports;
}

function promptUri(connection: string, tenantId: number, id: number): vscode.Uri {
  return documentUri({ type: 'resource', connection, tenantId, segment: 'ai_prompts', id });
}

function kindFolder(connection: string, tenantId: number, segment: string): vscode.Uri {
  return vscode.Uri.parse(`convai://${connection}/tenants/${tenantId}/${segment}/`);
}

/** The GETs of a kind's listing the service received since it was cleared. */
async function listingGets(segment: string, url?: string): Promise<number> {
  return (await receivedRequests(url)).filter((r) => r.method === 'GET' && r.path === `/api/v1/${segment}`).length;
}

describe('the change service', () => {
  before(async () => {
    await addConnection(CONNECTION);
    await addConnection(LARGE, { baseUrl: largeService.url, token: largeService.adminToken });
  });
  after(async () => {
    await removeConnection(CONNECTION);
    await removeConnection(LARGE);
  });
  afterEach(async () => {
    await revertAll();
  });

  it("Refresh: a read of a kind's folder right after it asks the service, and open clean documents show its changes", async () => {
    const id = (await admin.create(kind('ai_prompts'), { name: 'Refreshed', description: 'before' }, 1)).id as number;
    let added: number | undefined;
    try {
      const folder = kindFolder(CONNECTION, 1, 'ai_prompts');
      const listed = async (): Promise<string[]> =>
        (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
      await listed();
      const document = await vscode.workspace.openTextDocument(promptUri(CONNECTION, 1, id));
      await admin.update(kind('ai_prompts'), id, { description: 'changed elsewhere' }, 1);
      added = (await admin.create(kind('ai_prompts'), { name: 'Added elsewhere' }, 1)).id as number;
      await clearRequests();
      assert.ok(!(await listed()).includes(`${added}.json`), 'the cached listing predates the prompt added elsewhere');
      assert.equal(await listingGets('ai_prompts'), 0, 'the listing is cached before Refresh');
      const reports = await reportsDuring(() => vscode.commands.executeCommand('convai.refresh'));
      assert.equal(reports.length, 1, 'one change event');
      assert.ok(reports[0]?.reloaded.includes(document.uri.toString()), 'the open document was reloaded');
      assert.ok((await listed()).includes(`${added}.json`), "the read after Refresh shows the service's listing");
      assert.ok((await listingGets('ai_prompts')) >= 1, 'the listing was asked for again');
      await documentText(document, (text) => text.includes('changed elsewhere'), 'the refreshed document');
    } finally {
      await admin.delete(kind('ai_prompts'), id, 1);
      if (added !== undefined) await admin.delete(kind('ai_prompts'), added, 1);
    }
  });

  it('a push of several changes fires one change event and drops only the listings of the kinds it touched', async () => {
    const tenant = await admin.create(kind('tenants'), {
      name: 'Change Tenant',
      email: 'ops@changes.example',
      package: 'standard',
    });
    const tenantId = tenant.id as number;
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-changes-'));
    try {
      const ids: number[] = [];
      for (const n of [1, 2, 3])
        ids.push(
          (await admin.create(kind('ai_prompts'), { name: `Pushed ${n}`, description: 'before' }, tenantId))
            .id as number,
        );
      await admin.create(
        kind('intents'),
        { name: 'untouched_intent', display_name: 'Untouched', intent_type: 1 },
        tenantId,
      );
      const folder = path.join(temp, 'tenant');
      await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
      const files = fs.readdirSync(path.join(folder, 'ai_prompts')).filter((file) => file.endsWith('.json'));
      assert.equal(files.length, 3, files.join(', '));
      for (const file of files) {
        const at = path.join(folder, 'ai_prompts', file);
        fs.writeFileSync(
          at,
          `${JSON.stringify({ ...(JSON.parse(fs.readFileSync(at, 'utf8')) as JsonObject), description: 'after' }, null, 2)}\n`,
        );
      }
      // Both kinds' listings cached, and one pushed prompt open.
      await vscode.workspace.fs.readDirectory(kindFolder(CONNECTION, tenantId, 'ai_prompts'));
      await vscode.workspace.fs.readDirectory(kindFolder(CONNECTION, tenantId, 'intents'));
      const document = await vscode.workspace.openTextDocument(promptUri(CONNECTION, tenantId, ids[0] as number));
      await clearRequests();

      const reports = await reportsDuring(() =>
        vscode.commands.executeCommand('convai.push', { folder, confirm: false }),
      );
      assert.equal(
        reports.length,
        1,
        `one change event for the push, not one per change: ${JSON.stringify(reports.map((r) => r.change))}`,
      );
      assert.deepEqual(reports[0]?.reloaded, [document.uri.toString()]);
      await documentText(document, (text) => text.includes('"description": "after"'), "the pushed prompt's document");

      // Since the push began: the open prompt's references may have read the prompts' listing already; either way once.
      await vscode.workspace.fs.readDirectory(kindFolder(CONNECTION, tenantId, 'intents'));
      await vscode.workspace.fs.readDirectory(kindFolder(CONNECTION, tenantId, 'ai_prompts'));
      assert.equal(await listingGets('intents'), 0, "the untouched kind's listing is still cached");
      assert.equal(await listingGets('ai_prompts'), 1, "the pushed kind's listing is read again, once");
    } finally {
      await admin.delete(kind('tenants'), tenantId);
      fs.rmSync(temp, { recursive: true, force: true });
    }
  });

  it("a promotion reloads the target tenant's open clean documents; a dirty one keeps its text and is named in the notice", async () => {
    const created: Array<[number, number]> = [];
    const make = async (name: string, tenantId: number, description: string): Promise<number> => {
      const id = (await admin.create(kind('ai_prompts'), { name, description }, tenantId)).id as number;
      created.push([id, tenantId]);
      return id;
    };
    try {
      await make('Promoted clean', 1, 'from the source');
      await make('Promoted dirty', 1, 'from the source');
      const clean = await vscode.workspace.openTextDocument(
        promptUri(CONNECTION, 2, await make('Promoted clean', 2, 'in the target')),
      );
      const dirty = await vscode.workspace.openTextDocument(
        promptUri(CONNECTION, 2, await make('Promoted dirty', 2, 'in the target')),
      );
      const typed = dirty.getText().replace('in the target', 'typed here');
      await replaceText(dirty, typed);

      const reports = await reportsDuring(() =>
        vscode.commands.executeCommand('convai.promote', {
          source: { connection: CONNECTION, tenantId: 1 },
          target: { connection: CONNECTION, tenantId: 2 },
          resources: [
            { segment: 'ai_prompts', name: 'Promoted clean' },
            { segment: 'ai_prompts', name: 'Promoted dirty' },
          ],
          confirm: false,
        }),
      );
      assert.equal(reports.length, 1, 'one change event for the promotion');
      assert.ok(reports[0]?.reloaded.includes(clean.uri.toString()), 'the clean document was reloaded');
      assert.deepEqual(reports[0]?.kept, [dirty.uri.toString()], 'the dirty document is named in the notice');
      await documentText(clean, (text) => text.includes('from the source'), 'the promoted document');
      assert.equal(dirty.getText(), typed, 'the dirty document keeps its text');
      assert.ok(dirty.isDirty);
    } finally {
      for (const [id, tenantId] of created) await admin.delete(kind('ai_prompts'), id, tenantId);
    }
  });

  it("in the large tenant, a delete fetches no other prompt, and reloads after Refresh stay within the connection's concurrency", async () => {
    const { tenantId, url } = largeService;
    const large = new ServiceClient({ baseUrl: url, token: () => largeService.adminToken });
    try {
      const listed = await large.list(kind('ai_prompts'), tenantId);
      const ids = listed.slice(0, 12).map((p) => p.id as number);
      const documents: vscode.TextDocument[] = [];
      for (const id of ids) documents.push(await vscode.workspace.openTextDocument(promptUri(LARGE, tenantId, id)));
      await clearRequests(url);
      const reports = await reportsDuring(() => vscode.commands.executeCommand('convai.refresh'));
      const ofLarge = reports[0]?.reloaded.filter((uri) => uri.startsWith(`convai://${LARGE}/`)) ?? [];
      assert.equal(ofLarge.length, documents.length, 'every open document of the tenant was reloaded');
      const reloads = await receivedRequests(url);
      assert.ok(mostInFlight(reloads) <= 4, `at most 4 requests at once: ${mostInFlight(reloads)}`);

      const victim = (await large.create(kind('ai_prompts'), { name: 'Deleted in bulk' }, tenantId)).id as number;
      await clearRequests(url);
      await vscode.commands.executeCommand('convai.deleteResource', {
        uri: promptUri(LARGE, tenantId, victim).toString(),
        confirm: false,
      });
      const sent = await receivedRequests(url);
      assert.ok(mostInFlight(sent) <= 4, `at most 4 requests at once: ${mostInFlight(sent)}`);
      const promptGets = sent.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/ai_prompts/'));
      assert.deepEqual(promptGets, [], 'no other prompt was fetched');
      assert.ok(sent.length <= 8, `a few requests: ${sent.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    } finally {
      await large.close();
    }
  });
});
