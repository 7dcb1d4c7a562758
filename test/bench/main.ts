// `npm run bench` (after scripts/bench.mjs has built everything): every measure beside its floor, in one run.
// Prints the table and its notes, writes them to test-output/bench.md, and exits 1 when a figure passes its goal,
// 2 when the bench could not measure. `-- --only <group>` measures one group of rows (options.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLocalService } from '../harness/local-service';
import { repoRoot, testOutputDir } from '../harness/paths';
import { bulkTenantName } from '../service/sample-data';
import { benchEnv, type MemorySample, type Pair, type UsedPrompts } from './protocol';
import {
  benchExitCode,
  formatTable,
  type Measurement,
  medianOfRatios,
  memoryBound,
  ratioOfMedians,
  sizeDifference,
  timeBound,
} from './report';
import { fetchRequestLog, type LoggedRequest, requestsPerPrompt } from './requests';
import { runSession, type SessionSamples } from './session';
import { measureValidation } from './validation';
import { extensionNotes, folderNotes, mapNotes, notesHeader, suiteNotes } from './notes';
import {
  CALLS,
  measureCallThroughput,
  measureSuiteThroughput,
  SUITE_CASES,
  SUITE_CONCURRENCY,
} from './suite-throughput';
import { measureTrialOverhead, TRIAL_CASES, TRIAL_PROMPTS } from './trial-overhead';
import { MATRIX, measureVariantMatrix } from './variant-matrix';
import { measureFolders, type FolderSamples } from './folders';
import { measureLargeFolders, type LargeFolderSamples } from './large-folders';
import { type FlowMapSamples, measureFlowMap } from './flow-map';
import {
  bytesOf,
  distPaths,
  FIRST_USE_FILES,
  HOST_BUDGET_KB,
  HOST_FILES,
  SHIPPED_BUDGET_KB,
  shippedFiles,
} from './host-size';
import { measureHostMemory } from './host-memory';
import { benchUsage, type BenchGroup, parseBenchArgs } from './options';

/** One activation sample per extension host, so several hosts; each also adds open, save, listing and tree pairs. */
const sessions = 7;
/** Tenants of 5,000 prompts: one per tree expansion of a session, the first also for open, save and listing. */
const bulkTenants = { count: 3, promptsEach: 5_000 };
const reportFile = path.join(testOutputDir, 'bench.md');
/** The bound on what browsing the large tenant may add to the extension host's memory. */
const HOST_MEMORY_GROWTH_MB = 150;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench through npm run bench`);
  return value;
}

const dist = path.join(repoRoot, 'dist');

/** Every file the extension host may load of the extension: their built-ins are loaded before activation is timed. */
const extensionBundles = (): string[] => distPaths(dist, [...HOST_FILES, ...FIRST_USE_FILES]);

const candidates = (pairs: readonly Pair[]): number[] => pairs.map((pair) => pair.candidate);
const floors = (pairs: readonly Pair[]): number[] => pairs.map((pair) => pair.floor);
/** Pairs whose halves were sampled independently (interleaved): the ratio of the medians. */
const independent = (measure: string, pairs: readonly Pair[], goal: number): Measurement =>
  ratioOfMedians(measure, candidates(pairs), floors(pairs), goal);

interface Inputs {
  runs: readonly SessionSamples[];
  validation: readonly Pair[];
  undiciBundle: string;
  requestLog: readonly LoggedRequest[];
  memory: { before: MemorySample; after: MemorySample };
}

function extensionMeasurements({ runs, validation, undiciBundle, requestLog, memory }: Inputs): Measurement[] {
  const pooled = (pick: (run: SessionSamples) => Pair[]): Pair[] => runs.flatMap(pick);
  const requests = (measure: string, pick: (run: SessionSamples) => UsedPrompts): Measurement => {
    const count = (side: keyof UsedPrompts): number[] =>
      requestsPerPrompt(
        requestLog,
        runs.flatMap((run) => pick(run)[side]),
      );
    return ratioOfMedians(measure, count('candidate'), count('floor'), 1, 'requests');
  };
  return [
    medianOfRatios(
      'activation: require + activate() vs require of an undici-only bundle',
      runs.map((run) => run.host.activation),
      1.5,
    ),
    sizeDifference(
      'extension-host JS (extension.js + undici.js) vs the undici-only bundle',
      bytesOf(distPaths(dist, HOST_FILES)),
      bytesOf([undiciBundle]),
      HOST_BUDGET_KB,
    ),
    sizeDifference(
      "the extension's whole JavaScript (every file the package ships) vs the undici-only bundle",
      bytesOf(distPaths(dist, shippedFiles(repoRoot))),
      bytesOf([undiciBundle]),
      SHIPPED_BUDGET_KB,
    ),
    independent(
      'open a prompt never read (openTextDocument)',
      pooled((run) => run.host.open),
      1.5,
    ),
    requests('requests to the service per open', (run) => run.host.opened),
    independent(
      'save an edited prompt (TextDocument.save)',
      pooled((run) => run.host.save),
      2,
    ),
    requests('requests to the service per open + save', (run) => run.host.saved),
    independent(
      'list an AI Prompts folder of 5,000 (readDirectory)',
      pooled((run) => run.host.listing),
      1.5,
    ),
    independent('validate a 300 KB prompt vs JSON.parse of its text', [...validation], 3),
    independent(
      'expand a tree node of 5,000 prompts (click to rows shown)',
      pooled((run) => run.tree),
      2,
    ),
    medianOfRatios(
      'tree first level of 50,000 prompts (its groups and rows, from an empty cache) vs its listing GET + JSON.parse',
      pooled((run) => run.host.large.firstLevel),
      1.5,
    ),
    timeBound(
      "Go to Resource answer among 63,000 names, listings cached (time bound: the issue's 100 ms)",
      candidates(pooled((run) => run.host.large.goToResource)),
      floors(pooled((run) => run.host.large.goToResource)),
      100,
    ),
    timeBound(
      "completion of next_prompt_id among 50,000 prompts (time bound: the issue's 50 ms)",
      candidates(pooled((run) => run.host.large.completion)),
      floors(pooled((run) => run.host.large.completion)),
      50,
    ),
    sizeDifference(
      'extension host memory (RSS) after browsing the large tenant (every kind expanded, 50 documents open, Go to Resource) vs before',
      memory.after.rss,
      memory.before.rss,
      HOST_MEMORY_GROWTH_MB,
      'MB',
    ),
  ];
}

function describeMachine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// The folder rows' pairs run back to back, each after the disk took what came before (folders.ts: pair): a pair shares
// the disk's and the machine's state, which moved a side's time by half from one round to the next here, so each row's
// figure is the median of its pairs' ratios.
function folderMeasurements({ pull, repull, plan, drift }: FolderSamples): Measurement[] {
  return [
    medianOfRatios('pull a tenant of 1,000 prompts into a new folder (CLI)', pull, 1.5),
    medianOfRatios('pull it again into the unchanged folder (CLI)', repull, 1.5),
    medianOfRatios('plan the unchanged folder of 1,000 prompts (CLI)', plan, 1.75),
    medianOfRatios('drift of that folder, nothing drifted (CLI)', drift, 1.5),
  ];
}

function largeFolderMeasurements({ pull, plan, push, pullMemory }: LargeFolderSamples): Measurement[] {
  return [
    medianOfRatios('pull the large tenant (65,001 resources) into a new folder (CLI)', pull, 1.5),
    memoryBound(
      "peak memory of that pull (CLI, max RSS; a bound: the issue's 500 MB)",
      candidates(pullMemory),
      floors(pullMemory),
      500,
    ),
    medianOfRatios('plan the unchanged folder of the large tenant (CLI)', plan, 1.75),
    medianOfRatios('push 100 edited prompt texts into it (CLI plan + push)', push, 1.5),
  ];
}

function mapMeasurements({ model, draw }: FlowMapSamples): Measurement[] {
  return [
    independent('map model of a tenant folder of 1,000 resources (CLI map --format json)', model, 1.5),
    timeBound(
      "layout and draw of a 1,000-resource map in the webview page (time bound: the issue's 2 s)",
      candidates(draw),
      floors(draw),
      2000,
    ),
  ];
}

async function measureExtension(): Promise<Measurement[]> {
  const codeServerBin = required('CONVAI_CODE_SERVER');
  const undiciBundle = required(benchEnv.undiciBundle);
  const bundles = extensionBundles();

  console.log('validation (plain Node)…');
  const validation = measureValidation();
  const service = await startLocalService({ bulkTenants, largeTenant: true });
  const runs: SessionSamples[] = [];
  let requestLog: LoggedRequest[];
  try {
    const tenantNames = Array.from({ length: bulkTenants.count }, (_, index) => bulkTenantName(index));
    for (let index = 0; index < sessions; index++) {
      const sessionStarted = Date.now();
      runs.push(
        await runSession({ codeServerBin, service, undiciBundle, extensionBundles: bundles, index, tenantNames }),
      );
      const { activation } = runs[index]?.host ?? {};
      const activated = activation
        ? `; activation ${activation.candidate.toFixed(0)} ms, undici-only require ${activation.floor.toFixed(0)} ms`
        : '';
      console.log(
        `VS Code session ${index + 1} of ${sessions}: ${((Date.now() - sessionStarted) / 1000).toFixed(1)} s${activated}`,
      );
    }
    requestLog = await fetchRequestLog(service.url);
  } finally {
    await service.close();
  }
  console.log('host memory: browsing the large tenant…');
  const large = await startLocalService({ largeTenant: true });
  let memory: { before: MemorySample; after: MemorySample };
  try {
    memory = await measureHostMemory({ codeServerBin, service: large });
  } finally {
    await large.close();
  }
  const grown = (memory.after.rss - memory.before.rss) / 1024 / 1024;
  console.log(
    `host memory: ${grown.toFixed(0)} MB grown (heap used ${((memory.after.heapUsed - memory.before.heapUsed) / 1024 / 1024).toFixed(0)} MB)`,
  );

  return extensionMeasurements({ runs, validation, undiciBundle, requestLog, memory });
}

const groups: Record<BenchGroup, { measure: () => Promise<Measurement[]>; ran: string; notes: readonly string[] }> = {
  extension: { measure: measureExtension, ran: `${sessions} VS Code sessions`, notes: extensionNotes },
  folders: {
    measure: async () => [
      ...folderMeasurements(await measureFolders()),
      ...largeFolderMeasurements(await measureLargeFolders()),
    ],
    ran: 'the command-line tool',
    notes: folderNotes,
  },
  map: {
    measure: async () => mapMeasurements(await measureFlowMap()),
    ran: 'the flow map in the command-line tool and headless Chromium',
    notes: mapNotes,
  },
  suites: {
    measure: async () => [
      independent(
        `suite throughput: ${SUITE_CASES} cases at concurrency ${SUITE_CONCURRENCY} vs serially`,
        await measureSuiteThroughput(),
        0.3,
      ),
      independent(
        `simulated calls: ${CALLS.calls} calls of ${CALLS.turns} turns, ${CALLS.judged} judged criteria, at concurrency ${SUITE_CONCURRENCY} vs serially`,
        await measureCallThroughput(),
        0.3,
      ),
      independent(
        `trial of ${TRIAL_PROMPTS} changed prompts, ${TRIAL_CASES} single-turn cases at concurrency ${SUITE_CONCURRENCY}, vs the suites live plus ${TRIAL_PROMPTS} creates and deletes`,
        await measureTrialOverhead(),
        1.3,
      ),
      independent(
        `variant matrix: ${MATRIX.variants} variants × ${MATRIX.cases} cases × repeat ${MATRIX.repeat} at concurrency ${SUITE_CONCURRENCY} vs the same runs one by one plus the copies' creates and deletes`,
        await measureVariantMatrix(),
        0.3,
      ),
    ],
    ran: 'the prompt test engine',
    notes: suiteNotes,
  },
};

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args.help) {
    console.log(benchUsage.join('\n'));
    return 0;
  }
  const started = Date.now();
  const rows: Measurement[] = [];
  for (const group of args.groups) rows.push(...(await groups[group].measure()));
  const chosen = args.groups.map((group) => groups[group]);
  const report = [
    formatTable(rows),
    '',
    `Measured on ${describeMachine()}; ${chosen.map((group) => group.ran).join(' and ')}.`,
    '',
    ...notesHeader,
    ...chosen.flatMap((group) => group.notes),
  ].join('\n');
  console.log(`\n${report}\n`);
  fs.mkdirSync(testOutputDir, { recursive: true });
  fs.writeFileSync(reportFile, `${report}\n`);
  console.log(
    `bench: ${((Date.now() - started) / 1000).toFixed(0)} s; the table is in ${path.relative(repoRoot, reportFile)}`,
  );
  return benchExitCode(rows);
}

// Interrupted, exit normally so that the started processes' exit hooks stop them.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench could not measure: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
