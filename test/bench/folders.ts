// The command-line tool on a tenant folder as users run it, each sample a fresh `node` process timed from spawn to
// exit: `pull` into a new folder, `pull` again into that unchanged folder, `plan` and `drift` of it, beside plain Node
// floors (floor-pull.mjs, floor-read.mjs) that do the least those commands must. A sample that did not do what its row
// claims throws, so the bench fails to measure instead of passing.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TENANT_SEGMENTS } from '../../src/core/resources';
import { startLocalService } from '../harness/local-service';
import { repoRoot } from '../harness/paths';
import { bulkTenantName } from '../service/sample-data';
import type { RunningService } from '../service/server';
import { filesDifference, type FolderFiles, requestsDifference } from './folder-checks';
import type { Pair } from './protocol';
import { fetchRequestLog, type LoggedRequest } from './requests';

/** The issue's tenant: 1,000 prompts, in a service of its own, so the 5,000-prompt rows' service stays as it was. */
export const folderTenant = { count: 1, promptsEach: 1_000 };
/** Pairs per row, after one warm-up of each side. */
const rounds = 15;

export const cli = path.join(repoRoot, 'dist', 'cli.js');
export const floorPull = path.join(repoRoot, 'test', 'bench', 'floor-pull.mjs');
const floorRead = path.join(repoRoot, 'test', 'bench', 'floor-read.mjs');
/** The undici subset the command-line tool bundles, built by scripts/build.mjs. */
export const undiciSubset = path.join(repoRoot, 'dist', 'undici.js');

type Row = 'pull' | 'repull' | 'plan' | 'drift';
const ROWS: readonly Row[] = ['pull', 'repull', 'plan', 'drift'];
export type FolderSamples = Record<Row, Pair[]>;

export interface Run {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node <args>` with the service's token in its environment, timed from spawn until the process has exited. */
export function runNode(args: readonly string[], token: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CONVAI_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let ms = NaN;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('exit', () => (ms = performance.now() - started));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ ms, code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

/** The run's time when it exited 0; anything else means the sample is not what it claims. */
export function succeeded(what: string, run: Run): number {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stderr.trim() || run.stdout.trim()}`);
  return run.ms;
}

export function readFolder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8'));
  }
  return files;
}

export function expectFiles(what: string, expected: FolderFiles, folder: string): void {
  const difference = filesDifference(expected, readFolder(folder));
  if (difference) throw new Error(`${what} did not leave the first pull's files in ${folder}: ${difference}`);
}

async function clearRequestLog(serviceUrl: string): Promise<void> {
  const response = await fetch(`${serviceUrl}/__test/requests`, { method: 'DELETE' });
  if (!response.ok)
    throw new Error(`DELETE /__test/requests answered ${response.status}: is the service in test mode?`);
}

/** The requests the service saw during `work`. */
async function requestsOf(serviceUrl: string, work: () => Promise<unknown>): Promise<LoggedRequest[]> {
  await clearRequestLog(serviceUrl);
  await work();
  return fetchRequestLog(serviceUrl);
}

/** The id of the tenant the local service seeded as `name`. */
export async function tenantId(service: RunningService, name: string): Promise<number> {
  const response = await fetch(`${service.url}/api/v1/tenants`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  const tenants = (await response.json()) as { id: number; name: string }[];
  const tenant = tenants.find((t) => t.name === name);
  if (!tenant) throw new Error(`the local service holds no "${name}": start it with the option that seeds it`);
  return tenant.id;
}

/**
 * Writes still in the system's cache go to the disk before a side starts: a pull leaves 165,000 files that the kernel
 * writes out for seconds after it exits, and whichever side ran next would pay for them.
 */
function flushed<T>(side: () => Promise<T>): () => Promise<T> {
  return () => {
    const sync = spawnSync('sync');
    if (sync.status !== 0) throw new Error(`sync failed: ${sync.error?.message ?? sync.stderr.toString()}`);
    return side();
  };
}

/**
 * Candidate and floor, the order alternating per round so that neither always runs on the other's leftovers, each
 * after the disk has taken what came before.
 */
export async function pair(
  round: number,
  candidate: () => Promise<number>,
  floor: () => Promise<number>,
): Promise<Pair> {
  const [c, f] = [flushed(candidate), flushed(floor)];
  if (round % 2 === 0) {
    const first = await c();
    return { candidate: first, floor: await f() };
  }
  const first = await f();
  return { candidate: await c(), floor: first };
}

export class FolderBench {
  private folders = 0;

  constructor(
    readonly service: RunningService,
    private readonly tenant: number,
    readonly scratch: string,
  ) {}

  newFolder(): string {
    return path.join(this.scratch, `folder-${++this.folders}`);
  }

  async pull(folder: string): Promise<number> {
    return succeeded(
      'pull',
      await runNode(
        [cli, 'pull', '--url', this.service.url, '--tenant', String(this.tenant), folder],
        this.service.adminToken,
      ),
    );
  }

  async plan(folder: string): Promise<number> {
    const run = await runNode([cli, 'plan', folder], this.service.adminToken);
    const ms = succeeded('plan', run);
    if (!/nothing to push|no change/i.test(run.stdout))
      throw new Error(`plan of the unchanged folder ${folder} planned something: ${run.stdout.trim()}`);
    return ms;
  }

  /** Exit 0: the service holds what was pulled, which a drift of anything would not. */
  async drift(folder: string): Promise<number> {
    return succeeded('drift', await runNode([cli, 'drift', folder], this.service.adminToken));
  }

  /** floor-pull.mjs without a folder: the same GETs, four at a time, and nothing written. */
  async floorDrift(spec: string): Promise<number> {
    return succeeded(
      'floor-pull.mjs (GETs only)',
      await runNode([floorPull, undiciSubset, spec], this.service.adminToken),
    );
  }

  async floorPull(spec: string, folder: string): Promise<number> {
    return succeeded('floor-pull.mjs', await runNode([floorPull, undiciSubset, spec, folder], this.service.adminToken));
  }

  async floorRead(folder: string): Promise<number> {
    return succeeded('floor-read.mjs', await runNode([floorRead, folder], this.service.adminToken));
  }

  /** The floor's input: the service's paths, and the files (names and texts) of the candidate's first pull. */
  writeSpec(files: FolderFiles): string {
    const spec = path.join(this.scratch, 'floor-pull.json');
    const api = `${new URL(this.service.url).pathname.replace(/\/$/, '')}/api/v1`;
    fs.writeFileSync(
      spec,
      JSON.stringify({
        origin: this.service.url,
        tenant: `${api}/tenants/${this.tenant}`,
        collections: TENANT_SEGMENTS.map((segment) => `${api}/${segment}`),
        query: `?tenant_id=${this.tenant}`,
        files: [...files],
      }),
    );
    return spec;
  }

  /** One of each, checked: the first pull's files and requests, from which the floor's spec is made. */
  async warmUp(): Promise<{ spec: string; files: FolderFiles }> {
    const folder = this.newFolder();
    const pulled = await requestsOf(this.service.url, () => this.pull(folder));
    const files = readFolder(folder);
    const repulled = await requestsOf(this.service.url, () => this.pull(folder));
    expectFiles('pull into the unchanged folder', files, folder);
    const spec = this.writeSpec(files);
    const floorFolder = this.newFolder();
    const floor = await requestsOf(this.service.url, () => this.floorPull(spec, floorFolder));
    expectFiles('floor-pull.mjs', files, floorFolder);
    for (const [what, requests] of [
      ['pull', pulled],
      ['pull into the unchanged folder', repulled],
    ] as const) {
      const difference = requestsDifference(requests, floor);
      if (difference) throw new Error(`${what} and floor-pull.mjs sent different requests: ${difference}`);
    }
    await this.plan(folder);
    await this.floorRead(folder);
    const drifted = await requestsOf(this.service.url, () => this.drift(folder));
    const floorDrift = await requestsOf(this.service.url, () => this.floorDrift(spec));
    const difference = requestsDifference(drifted, floorDrift);
    if (difference) throw new Error(`drift and floor-pull.mjs (GETs only) sent different requests: ${difference}`);
    return { spec, files };
  }

  async round(index: number, spec: string, files: FolderFiles): Promise<Record<Row, Pair>> {
    const folder = this.newFolder();
    const floorFolders = [this.newFolder(), this.newFolder()];
    const floorPulled = async (floorFolder: string): Promise<number> => {
      const ms = await this.floorPull(spec, floorFolder);
      expectFiles('floor-pull.mjs', files, floorFolder);
      return ms;
    };
    const pulled = async (what: string): Promise<number> => {
      const ms = await this.pull(folder);
      expectFiles(what, files, folder);
      return ms;
    };
    const samples = {
      pull: await pair(
        index,
        () => pulled('pull'),
        () => floorPulled(floorFolders[0] as string),
      ),
      repull: await pair(
        index,
        () => pulled('pull into the unchanged folder'),
        () => floorPulled(floorFolders[1] as string),
      ),
      plan: await pair(
        index,
        () => this.plan(folder),
        () => this.floorRead(folder),
      ),
      drift: await pair(
        index,
        () => this.drift(folder),
        () => this.floorDrift(spec),
      ),
    };
    // The folders stay until the end: removing thousands of files makes the file system slow for whatever writes next
    // (freed blocks are discarded as the journal commits), and that would be whichever side starts the next round.
    return samples;
  }
}

export async function measureFolders(): Promise<FolderSamples> {
  for (const file of [cli, undiciSubset])
    if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: the build did not run`);
  const service = await startLocalService({ bulkTenants: folderTenant });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-folders-'));
  try {
    const bench = new FolderBench(service, await tenantId(service, bulkTenantName(0)), scratch);
    const { spec, files } = await bench.warmUp();
    const samples: FolderSamples = { pull: [], repull: [], plan: [], drift: [] };
    for (let index = 0; index < rounds; index++) {
      const round = await bench.round(index, spec, files);
      for (const row of ROWS) samples[row].push(round[row]);
      const shown = ({ candidate, floor }: Pair): string => `${candidate.toFixed(0)} vs ${floor.toFixed(0)} ms`;
      console.log(
        `tenant folder round ${index + 1} of ${rounds}: pull ${shown(round.pull)}, again ${shown(round.repull)}, plan ${shown(round.plan)}, drift ${shown(round.drift)}`,
      );
    }
    return samples;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    await service.close();
  }
}
