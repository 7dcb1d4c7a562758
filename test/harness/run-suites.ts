// Runs the test suites in order (all, or those named as arguments) and prints a summary whose last line is
// `N passed, M failed`. Exits non-zero when a test failed or a suite could not run.
import { runLintSuite } from './lint-suite';
import { runMochaSuite } from './mocha-suite';
import { brokenOutcome, exitCode, summaryLines, SuiteOutcome } from './summary';

const suites: { name: string; run: () => SuiteOutcome | Promise<SuiteOutcome> }[] = [
  { name: 'lint', run: runLintSuite },
  { name: 'unit', run: () => runMochaSuite('unit') },
  { name: 'contract', run: () => runMochaSuite('contract') },
  {
    name: 'integration',
    // Loaded only when run: it pulls in the local service and Playwright, which the other suites do without.
    // scripts/test.mjs installs code-server and says where.
    run: async () => (await import('./integration.js')).runIntegrationSuite(process.env.CONVAI_CODE_SERVER),
  },
  // Playwright clicking through a live workbench (test/ui); its tests find code-server in CONVAI_CODE_SERVER.
  { name: 'ui', run: () => runMochaSuite('ui', 60_000) },
  // The .vsix `npm run package` makes, installed into code-server as a user installs it, clicked through like ui.
  { name: 'installed', run: async () => (await import('./installed.js')).runInstalledSuite() },
];

async function runSuite(suite: (typeof suites)[number]): Promise<SuiteOutcome> {
  console.log(`\n━━ ${suite.name} ━━`);
  try {
    return await suite.run();
  } catch (error) {
    // A broken suite still gets reported, and the suites after it still run.
    console.error(error);
    return brokenOutcome(suite.name, error instanceof Error ? error.message : String(error), 0);
  }
}

async function main(names: string[]): Promise<number> {
  const known = suites.map((suite) => suite.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown suite ${unknown.join(', ')}; the suites are: ${known.join(', ')}`);
    return 2;
  }
  const outcomes: SuiteOutcome[] = [];
  for (const suite of suites) {
    if (names.length === 0 || names.includes(suite.name)) outcomes.push(await runSuite(suite));
  }
  console.log(summaryLines(outcomes).join('\n'));
  return exitCode(outcomes);
}

// Interrupted, exit normally so that the started processes' exit hooks stop them.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

void main(process.argv.slice(2)).then((code) => process.exit(code));
