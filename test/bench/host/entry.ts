// The bench's extensionTestsPath entry: VS Code's extension host calls run() with the extension under development
// loaded but not activated. It times the activation first, then open, save and listing, and reports through the
// samples file (a rejected run() only reaches the browser console). It then registers the floor tree and waits, so
// that the harness can expand both trees in this window, until the harness says it is done.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeFileAtomically } from '../../harness/atomic-file';
import { waitForFile } from '../../harness/wait';
import { bulkTenantName } from '../../service/sample-data';
import {
  benchConnection,
  benchEnv,
  doneFile,
  floorScheme,
  floorViewId,
  type HostReport,
  type HostSamples,
  samplesFile,
} from '../protocol';
import { measureActivation, undiciOf } from './activation';
import { DocumentBench, promptsNeeded } from './documents';
import { FloorClient } from './floor-client';
import { FloorFileSystem } from './floor-fs';
import { FloorTree } from './floor-tree';
import { measureLarge } from './large';
import { LARGE_TENANT } from '../../service/large-tenant';

/** Per extension host; the harness runs several and pools them. */
const iterations = { open: 10, save: 6, listing: 4 };
/** Long enough for the harness's tree measures, short enough not to keep a forgotten window alive. */
const holdMs = 10 * 60_000;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench through npm run bench`);
  return value;
}

async function bulkTenants(client: FloorClient): Promise<{ id: number; name: string }[]> {
  const tenants = await client.tenants();
  const bulk = [];
  for (let index = 0; ; index++) {
    const tenant = tenants.find((t) => t.name === bulkTenantName(index));
    if (!tenant) break;
    bulk.push(tenant);
  }
  if (bulk.length === 0) throw new Error('the local service holds no bulk tenants: start it with bulkTenants');
  return bulk;
}

async function measure(subscriptions: vscode.Disposable[]): Promise<HostSamples> {
  const undiciBundle = env(benchEnv.undiciBundle);
  const activation = await measureActivation(
    undiciBundle,
    env(benchEnv.extensionBundles).split(path.delimiter),
    Number(env(benchEnv.session)),
  );

  const serviceUrl = env('CONVAI_SERVICE_URL');
  const adminToken = env('CONVAI_ADMIN_TOKEN');
  const client = new FloorClient(undiciOf(undiciBundle), serviceUrl, adminToken);
  const tenants = await bulkTenants(client);
  subscriptions.push(
    vscode.workspace.registerFileSystemProvider(floorScheme, new FloorFileSystem(client), { isCaseSensitive: true }),
    vscode.window.createTreeView(floorViewId, { treeDataProvider: new FloorTree(client, tenants) }),
  );
  await vscode.commands.executeCommand('convai.addConnection', {
    name: benchConnection,
    baseUrl: serviceUrl,
    token: adminToken,
  });

  const [first] = tenants;
  if (!first) throw new Error('no bulk tenant');
  const prompts = await client.prompts(first.id);
  // Sessions share the service: each starts at another place in the list, so a save never meets another's edit.
  const session = Number(env(benchEnv.session));
  const perSession = promptsNeeded(iterations.open, iterations.save);
  const promptIds = prompts.map((p) => p.id).slice(session * perSession, (session + 1) * perSession);
  const documents = new DocumentBench({ tenantId: first.id, promptIds, promptCount: prompts.length });
  // Listings first: `convai.refresh` before each would otherwise set the extension reloading what the open
  // documents refer to, beside the listing being timed.
  const listing = await documents.listings(iterations.listing);
  const open = await documents.opens(iterations.open);
  const save = await documents.saves(iterations.save);
  const largeTenant = (await client.tenants()).find((tenant) => tenant.name === LARGE_TENANT);
  if (!largeTenant) throw new Error(`the local service holds no tenant ${LARGE_TENANT}: start it with largeTenant`);
  const large = await measureLarge(client, largeTenant.id, adminToken);
  return { activation, open, save, listing, opened: documents.opened, saved: documents.saved, large };
}

export async function run(): Promise<void> {
  const dir = env(benchEnv.dir);
  const subscriptions: vscode.Disposable[] = [];
  let report: HostReport;
  try {
    report = { ok: true, samples: await measure(subscriptions) };
  } catch (error) {
    report = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  writeFileAtomically(samplesFile(dir), JSON.stringify(report));
  await waitForFile(doneFile(dir), holdMs);
  for (const subscription of subscriptions) subscription.dispose();
}
