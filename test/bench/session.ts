// One VS Code session of the bench: code-server with the extension under development (not activated) and the
// floor's view, the bench entry as extensionTestsPath, headless Chromium on the workbench. The entry measures in
// the extension host and reports; then the harness expands the trees; then it lets the entry go and closes all.
// The host memory row's session (host-memory.ts) runs in the same kind of window.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CodeServer,
  developmentPayload,
  openWorkbench,
  startCodeServer,
  Workbench,
  workbenchUrl,
} from '../harness/code-server';
import { extensionTestEnv } from '../harness/local-service';
import { compiledTestsDir, repoRoot, testOutputDir } from '../harness/paths';
import { quietSettings } from '../harness/ui-workbench';
import { waitForFile } from '../harness/wait';
import type { RunningService } from '../service/server';
import { benchEnv, doneFile, type HostReport, type HostSamples, type Pair, samplesFile } from './protocol';
import { measureTreeExpansions } from './tree';

export const benchCodeServerLog = path.join(testOutputDir, 'bench-code-server.log');
export const benchBrowserConsoleLog = path.join(testOutputDir, 'bench-browser-console.log');

const floorExtension = path.join(repoRoot, 'test', 'bench', 'floor-extension');
const hostTimeoutMs = 5 * 60_000;

export interface SessionOptions {
  codeServerBin: string;
  service: RunningService;
  undiciBundle: string;
  extensionBundles: readonly string[];
  index: number;
  tenantNames: readonly string[];
}

export interface SessionSamples {
  host: HostSamples;
  tree: Pair[];
}

function readReport(file: string): HostReport {
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as HostReport;
  if (typeof report.ok !== 'boolean') throw new Error(`${file} is not a bench report`);
  return report;
}

/** What a bench window's driver gets: the page, the exchange folder, and a wait for a file the entry writes. */
export interface BenchWindow {
  workbench: Workbench;
  dir: string;
  /** Resolves once the entry wrote `file`; rejects when it did not within the host's time-out or code-server died. */
  entryWrote(file: string): Promise<void>;
}

/**
 * code-server with the extension under development and the floor's view, `entry` (a file of test/bench/host/) as
 * extensionTestsPath, and headless Chromium on the workbench, for `drive`; then the done file lets the entry go.
 */
export async function inBenchWindow<T>(
  options: { codeServerBin: string; service: RunningService; entry: string; env: Record<string, string> },
  drive: (window: BenchWindow) => Promise<T>,
): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-'));
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(workspace);
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      bin: options.codeServerBin,
      workspace,
      env: { ...extensionTestEnv(options.service, samplesFile(dir)), [benchEnv.dir]: dir, ...options.env },
      userSettings: quietSettings,
      logFile: benchCodeServerLog,
      extensions: [floorExtension],
    });
    const entry = path.join(compiledTestsDir, 'bench', 'host', options.entry);
    workbench = await openWorkbench(
      workbenchUrl(server, developmentPayload(server, repoRoot, entry)),
      benchBrowserConsoleLog,
    );
    // Both trees get the same tall side bar, so that they render the same number of rows.
    await workbench.page.setViewportSize({ width: 1400, height: 900 });
    workbench.page.setDefaultTimeout(30_000);
    const codeServerDied = server.exited.then((how): never => {
      throw new Error(`code-server exited (${how}) during the bench; see ${benchCodeServerLog}`);
    });
    const entryWrote = async (file: string): Promise<void> => {
      const written = await Promise.race([waitForFile(file, hostTimeoutMs), codeServerDied]);
      if (!written)
        throw new Error(
          `the bench entry wrote no ${path.basename(file)} within ${hostTimeoutMs / 60_000} minutes; see ${benchBrowserConsoleLog}`,
        );
    };
    return await drive({ workbench, dir, entryWrote });
  } finally {
    // Lets the entry's run() return, whether or not the driver finished.
    fs.writeFileSync(doneFile(dir), '');
    await Promise.allSettled([workbench?.close(), server?.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function runSession(options: SessionOptions): Promise<SessionSamples> {
  const env = {
    [benchEnv.undiciBundle]: options.undiciBundle,
    [benchEnv.extensionBundles]: options.extensionBundles.join(path.delimiter),
    [benchEnv.session]: String(options.index),
  };
  return inBenchWindow({ ...options, entry: 'entry.js', env }, async ({ workbench, dir, entryWrote }) => {
    await entryWrote(samplesFile(dir));
    const report = readReport(samplesFile(dir));
    if (!report.ok) throw new Error(`in the extension host: ${report.error}`);
    const tree = await measureTreeExpansions(workbench.page, options.tenantNames);
    return { host: report.samples, tree };
  });
}
