// The host memory row's extensionTestsPath entry: inside the extension host, with the extension connected to a
// service that holds the large tenant, it takes the host's memory after a full garbage collection, opens 50 of the
// tenant's prompts in editors, and says the harness may browse (expand every kind, run Go to Resource). Once the
// harness has, it takes the memory again: the growth is what browsing the tenant keeps in the host.
import * as vscode from 'vscode';
import { writeFileAtomically } from '../../harness/atomic-file';
import { waitForFile } from '../../harness/wait';
import { LARGE_TENANT } from '../../service/large-tenant';
import { collectGarbage } from './collect';
import {
  benchConnection,
  benchEnv,
  browsedFile,
  doneFile,
  type MemoryReady,
  type MemoryReport,
  type MemorySample,
  readyFile,
  samplesFile,
} from '../protocol';

/** The browsing: 50 documents open. */
export const OPENED_DOCUMENTS = 50;
/** Long enough for the harness to expand every kind of 50,000 prompts and run Go to Resource. */
const browseMs = 15 * 60_000;
/** Between samples while the host settles, and the most it may take. */
const settleStepMs = 1_000;
const settleMs = 30_000;
/** Two samples a step apart that differ by less than this: the host has settled. */
const settledBytes = 1024 * 1024;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench through npm run bench`);
  return value;
}

/** The host's memory once garbage no longer counts: what browsing keeps, not what it left to collect. */
function settledMemory(): MemorySample {
  collectGarbage();
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

/**
 * The memory once the host has released what browsing left to release: the closed quick pick's items and the
 * collapsed kinds' tree items go when the workbench tells the host, a moment after, and no event says when. A
 * sample right away counted some 25 MB of them; sampled each second, the heap is level from the next sample on.
 */
async function settledAfterBrowsing(): Promise<MemorySample> {
  let last = settledMemory();
  for (const started = Date.now(); Date.now() - started < settleMs; ) {
    await new Promise((resolve) => setTimeout(resolve, settleStepMs));
    const next = settledMemory();
    if (Math.abs(next.heapUsed - last.heapUsed) < settledBytes) return next;
    last = next;
  }
  throw new Error(`the extension host's heap did not settle within ${settleMs / 1000} s of browsing`);
}

async function serviceGet(path: string): Promise<unknown> {
  const response = await fetch(`${env('CONVAI_SERVICE_URL')}/api/v1${path}`, {
    headers: { authorization: `Bearer ${env('CONVAI_ADMIN_TOKEN')}` },
  });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.json();
}

/** The large tenant's id, the prompts to open and one more for Go to Resource to find; read before the baseline. */
async function largeTenantPrompts(): Promise<{ tenantId: number; open: number[]; find: { id: number; name: string } }> {
  const tenants = (await serviceGet('/tenants')) as Array<{ id: number; name: string }>;
  const tenant = tenants.find((t) => t.name === LARGE_TENANT);
  if (!tenant) throw new Error(`the service holds no tenant "${LARGE_TENANT}": start it with largeTenant`);
  const prompts = (await serviceGet(`/ai_prompts?tenant_id=${tenant.id}`)) as Array<{ id: number; name: string }>;
  // Spread over the tenant's groups, as a person browsing would open them.
  const step = Math.floor(prompts.length / OPENED_DOCUMENTS);
  const open = Array.from({ length: OPENED_DOCUMENTS }, (_, n) => prompts[n * step]?.id).filter(
    (id): id is number => id !== undefined,
  );
  const last = prompts[prompts.length - 1];
  if (open.length < OPENED_DOCUMENTS || !last)
    throw new Error(`tenant "${LARGE_TENANT}" holds too few prompts to browse`);
  return { tenantId: tenant.id, open, find: { id: last.id, name: last.name } };
}

async function browse(dir: string): Promise<MemoryReport> {
  const baseUrl = env('CONVAI_SERVICE_URL');
  await vscode.commands.executeCommand('convai.addConnection', {
    name: benchConnection,
    baseUrl,
    token: env('CONVAI_ADMIN_TOKEN'),
  });
  const { tenantId, open, find } = await largeTenantPrompts();
  const before = settledMemory();
  for (const id of open) {
    await vscode.window.showTextDocument(
      vscode.Uri.from({
        scheme: 'convai',
        authority: benchConnection,
        path: `/tenants/${tenantId}/ai_prompts/${id}.json`,
      }),
      { preview: false },
    );
  }
  writeFileAtomically(readyFile(dir), JSON.stringify({ ok: true, find } satisfies MemoryReady));
  if (!(await waitForFile(browsedFile(dir), browseMs)))
    throw new Error(`the harness did not browse within ${browseMs / 60_000} minutes`);
  return { ok: true, before, after: await settledAfterBrowsing() };
}

export async function run(): Promise<void> {
  const dir = env(benchEnv.dir);
  let report: MemoryReport;
  try {
    report = await browse(dir);
  } catch (error) {
    report = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    // The harness may still wait to browse: it learns of the failure from this file as well.
    writeFileAtomically(readyFile(dir), JSON.stringify(report satisfies MemoryReady));
  }
  writeFileAtomically(samplesFile(dir), JSON.stringify(report));
  await waitForFile(doneFile(dir), browseMs);
}
