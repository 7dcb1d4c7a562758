// Root hooks for every UI test file. Each file imports this module; Node loads it once, so the hooks are registered
// once on mocha's root suite and all UI tests share one workbench (one local service, code-server and browser).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { saveScreenshot } from '../harness/screenshots';
import { startUiWorkbench, uiBrowserConsoleLog, uiCodeServerLog, UiWorkbench } from '../harness/ui-workbench';
import { runCommand } from './tree-view';

let current: UiWorkbench | undefined;
/** Folders removed once the workbench has closed (removeAfterWorkbench). */
const leftovers: string[] = [];

/**
 * Removes `folder` once the workbench has closed, not now: an extension host that knows a pulled folder of 165,000
 * files hears of each removal, and was busy for more than the 20 s the next test's question waited. Removed as the
 * process exits, after the suite's results are written: on a busy disk the removal outlasted the last hook's time.
 */
export function removeAfterWorkbench(folder: string): void {
  if (leftovers.length === 0)
    process.once('exit', () => leftovers.forEach((each) => fs.rmSync(each, { recursive: true, force: true })));
  leftovers.push(folder);
}

/** The shared workbench; only valid inside tests. */
export function workbench(): UiWorkbench {
  if (!current) throw new Error('the UI workbench is not running (its before hook failed?)');
  return current;
}

// Mocha dies of these without its 'exit' event, which is what stops code-server's process group.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

before(async function () {
  // Cold starts take about 5 s here; code-server alone may take up to a minute before it gives up.
  this.timeout(120_000);
  // The installed suite shares these hooks and names its package here.
  current = await startUiWorkbench(process.env.CONVAI_CODE_SERVER, { vsix: process.env.CONVAI_VSIX });
});

// The page as the failing test left it: often the quickest way to see why.
afterEach(async function () {
  const test = this.currentTest;
  if (!current || test?.state !== 'failed') return;
  const file = await saveScreenshot(current.page, `failed-${test.fullTitle().replace(/[^\w-]+/g, '-')}`).catch(
    () => undefined,
  );
  const shown = [file, uiCodeServerLog, uiBrowserConsoleLog].flatMap((each) =>
    each ? [path.relative(process.cwd(), each)] : [],
  );
  console.log(`    see ${shown.join(', ')}`);
  // What the failure left open (a quick input, an error's toast) would fail the tests after it, which wait for toasts
  // to go: the next test starts from a clear window.
  await current.page.keyboard.press('Escape').catch(() => undefined);
  await runCommand(current.page, 'Notifications: Clear All Notifications').catch(() => undefined);
});

after(async function () {
  await current?.close();
  current = undefined;
});
