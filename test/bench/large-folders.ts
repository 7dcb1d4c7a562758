// The command-line tool on the large tenant (tenant 3 of `--large`: 50,000 prompts, 10,000 intents, 1,000 of each
// other kind), as the issue measures it: `pull` into a new folder against floor-pull.mjs (the same GETs, four at a
// time, the same files), its peak memory, `plan` of the unchanged folder against floor-read.mjs, and `push` of 100
// edited prompt texts against floor-push.mjs (reading the folder, then 100 PUTs four at a time). Fewer rounds than
// the 1,000-prompt rows: a round takes a minute. The plan rounds follow a
// warm-up of each side, as those rows' do, so they measure the plans after a folder's first.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLocalService } from '../harness/local-service';
import { kindById } from '../../src/core/resources';
import { repoRoot } from '../harness/paths';
import { LARGE_TENANT } from '../service/large-tenant';
import {
  cli,
  expectFiles,
  FolderBench,
  floorPull,
  pair,
  readFolder,
  runNode,
  succeeded,
  tenantId,
  undiciSubset,
} from './folders';
import type { Pair } from './protocol';

const rounds = 9;
/** The prompts a push edits: the hundred. */
const EDITED = 100;
const floorPush = path.join(repoRoot, 'test', 'bench', 'floor-push.mjs');
const maxRss = path.join(repoRoot, 'test', 'bench', 'max-rss.mjs');

export interface LargeFolderSamples {
  pull: Pair[];
  plan: Pair[];
  push: Pair[];
  /** Peak resident memory per round, in MB: the CLI's pull, and floor-pull.mjs's (which holds every file's text). */
  pullMemory: Pair[];
}

/** The peak memory max-rss.mjs reported on the run's stderr. */
function peakMb(stderr: string): number {
  const match = /max-rss-kb (\d+)\s*$/.exec(stderr);
  if (!match) throw new Error(`the pull reported no peak memory: ${stderr.slice(-200)}`);
  return Number(match[1]) / 1024;
}

/**
 * The first `count` prompts' system texts in the folder, edited with `mark`: the files a push then sends. Without a
 * mark, the texts as pulled again: a push of them puts the service back, so that the next round's pull writes the
 * files the first pull wrote.
 */
function editPrompts(folder: string, count: number, mark?: string): void {
  const texts = fs
    .readdirSync(path.join(folder, 'ai_prompts'))
    .filter((name) => name.endsWith('.system.md'))
    .sort()
    .slice(0, count);
  if (texts.length < count) throw new Error(`the folder holds ${texts.length} prompt texts, not ${count}`);
  for (const name of texts) {
    const file = path.join(folder, 'ai_prompts', name);
    const pulled = fs.readFileSync(file, 'utf8').replace(/\n\[edited [^\]]*\]\n$/, '\n');
    fs.writeFileSync(file, mark === undefined ? pulled : `${pulled}[edited ${mark}]\n`);
  }
}

/**
 * The floor's PUTs: as many prompts as the push edits, but others (the last of the folder), each sent what it holds,
 * so the service's state of the pushed prompts (which a later round's plan compares) never moves.
 */
function pushSpec(bench: FolderBench, folder: string, tenant: number): string {
  const names = fs
    .readdirSync(path.join(folder, 'ai_prompts'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .slice(-EDITED);
  const api = `${new URL(bench.service.url).pathname.replace(/\/$/, '')}/api/v1`;
  const puts = names.map((name) => {
    const { id, name: held } = JSON.parse(fs.readFileSync(path.join(folder, 'ai_prompts', name), 'utf8')) as {
      id: number;
      name: string;
    };
    return [
      `${api}/ai_prompts/${id}?tenant_id=${tenant}`,
      JSON.stringify({ [kindById('prompt').wrapperKey]: { name: held } }),
    ];
  });
  const spec = path.join(bench.scratch, 'floor-push.json');
  fs.writeFileSync(spec, JSON.stringify({ origin: bench.service.url, puts }));
  return spec;
}

export async function measureLargeFolders(): Promise<LargeFolderSamples> {
  for (const file of [cli, undiciSubset])
    if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: the build did not run`);
  const service = await startLocalService({ largeTenant: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-large-'));
  try {
    const tenant = await tenantId(service, LARGE_TENANT);
    const bench = new FolderBench(service, tenant, scratch);
    const samples: LargeFolderSamples = { pull: [], plan: [], push: [], pullMemory: [] };
    const memory = { candidate: 0, floor: 0 };
    const pullOnce = async (folder: string): Promise<number> => {
      const run = await runNode(
        ['--import', pathToFileURL(maxRss).href, cli, 'pull', '--url', service.url, '--tenant', String(tenant), folder],
        service.adminToken,
      );
      const ms = succeeded('pull of the large tenant', run);
      memory.candidate = peakMb(run.stderr);
      return ms;
    };
    const floorPullOnce = async (floorFolder: string): Promise<number> => {
      const run = await runNode(
        ['--import', pathToFileURL(maxRss).href, floorPull, undiciSubset, spec, floorFolder],
        service.adminToken,
      );
      const ms = succeeded('floor-pull.mjs', run);
      memory.floor = peakMb(run.stderr);
      return ms;
    };
    // The first pull gives the floor its files. The service's request log holds 10,000 requests, too few to compare
    // the two sides' 65,000 here: the 1,000-prompt rows check that pull and floor send the same ones, by the same code.
    const first = bench.newFolder();
    await pullOnce(first);
    const files = readFolder(first);
    const spec = bench.writeSpec(files);
    const floorFirst = bench.newFolder();
    await floorPullOnce(floorFirst);
    expectFiles('floor-pull.mjs', files, floorFirst);
    // One warm-up of each side, as the 1,000-prompt rows have: the folder's first plan reads every file and notes
    // their stamps (every later one stats them), and the floor's first read finds files the system no longer caches.
    const firstPlan = await pair(
      0,
      () => bench.plan(first),
      () => bench.floorRead(first),
    );
    console.log(
      `large tenant warm-up: the folder's first plan ${firstPlan.candidate.toFixed(0)} ms, its first read ${firstPlan.floor.toFixed(0)} ms`,
    );
    const putSpec = pushSpec(bench, first, tenant);
    const pushed = async (index: number): Promise<number> => {
      editPrompts(first, EDITED, `round ${index}`);
      return succeeded('push of 100 edited prompts', await runNode([cli, 'push', first], service.adminToken));
    };
    const restored = async (): Promise<void> => {
      editPrompts(first, EDITED);
      succeeded('push of the 100 prompts as pulled', await runNode([cli, 'push', first], service.adminToken));
    };
    const floorPushed = async (): Promise<number> =>
      succeeded('floor-push.mjs', await runNode([floorPush, undiciSubset, putSpec, first], service.adminToken));
    for (let index = 0; index < rounds; index++) {
      const folder = bench.newFolder();
      const floorFolder = bench.newFolder();
      const round = {
        pull: await pair(
          index,
          async () => {
            const ms = await pullOnce(folder);
            expectFiles('pull of the large tenant', files, folder);
            return ms;
          },
          async () => {
            const ms = await floorPullOnce(floorFolder);
            expectFiles('floor-pull.mjs', files, floorFolder);
            return ms;
          },
        ),
        plan: await pair(
          index,
          () => bench.plan(first),
          () => bench.floorRead(first),
        ),
        push: await pair(index, () => pushed(index), floorPushed),
      };
      await restored();
      samples.pull.push(round.pull);
      samples.plan.push(round.plan);
      samples.push.push(round.push);
      samples.pullMemory.push({ ...memory });
      const shown = ({ candidate, floor }: Pair): string => `${candidate.toFixed(0)} vs ${floor.toFixed(0)} ms`;
      console.log(
        `large tenant round ${index + 1} of ${rounds}: pull ${shown(round.pull)} (${memory.candidate.toFixed(0)} MB), plan ${shown(round.plan)}, push of ${EDITED} ${shown(round.push)}`,
      );
    }
    return samples;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    await service.close();
  }
}
