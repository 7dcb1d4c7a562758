// @ts-check
// `npm start`: installs and builds what is missing, starts the local service with its sample data, and
// opens VS Code with the extension loaded and a connection `local` to that service: desktop `code` when it
// is on PATH, else code-server, whose URL is printed for a browser. Ctrl+C stops everything it started.
// The workbench opens on the ConvAI view, and the first time on the extension's walkthrough too (until
// .cache/start/walkthrough-shown exists: delete it to see the walkthrough again).
// `npm start -- --installed` runs the package `npm run package` makes, installed as a user installs it, instead.
// `npm start -- --duplicate-names` adds the local service's tenant "Duplicate Names" (test/service/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureCodeServer, ensureNodeModules, repoRoot, run } from './ensure.mjs';
import { packageExtension } from './package.mjs';

const require = createRequire(import.meta.url);
const cacheDir = path.join(repoRoot, '.cache', 'start');
const workspace = path.join(cacheDir, 'workspace');
const startConnection = path.join(repoRoot, 'scripts', 'start-connection');

function hasDesktopCode() {
  return !process.env.CONVAI_START_BROWSER && spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

const installed = process.argv.includes('--installed');
const duplicateNames = process.argv.includes('--duplicate-names');
const largeTenant = process.argv.includes('--large');

ensureNodeModules();
const desktop = hasDesktopCode();
const codeServerBin = desktop ? undefined : ensureCodeServer();
run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]);
const vsix = installed ? packageExtension({ build: false }) : undefined;

/** @type {{ startService: (o: { port?: number, adminToken: string, duplicateNames?: boolean, largeTenant?: boolean }) => Promise<{ url: string, adminToken: string, tenantTokens: { id: number, name: string, token: string }[], close(): Promise<void> }> }} */
const { startService } = require(path.join(repoRoot, 'out', 'test', 'service', 'server.js'));
const service = await startService({
  port: Number(process.env.CONVAI_SERVICE_PORT ?? 0),
  adminToken: `admin-${randomBytes(8).toString('hex')}`,
  duplicateNames,
  largeTenant,
});

mkdirSync(workspace, { recursive: true });
writeFileSync(
  path.join(workspace, 'README.md'),
  [
    '# ConvAI Config playground',
    '',
    'Open the ConvAI view in the activity bar: the connection `local` points at the local service.',
    '',
    '- `acme-support/`: the sample tenant, pulled afresh at every `npm start` (the service starts afresh too);',
    '  edit a file and see it in the Source Control view, then Plan Push.',
    '- `order-triage.prompttest.json`: a prompt test suite; run it from the Testing view (step 4 of the tour in the',
    "  repository's README).",
    '',
  ].join('\n'),
);
// Every feature one click away: a pulled tenant folder and a prompt test suite.
const sampleFolder = path.join(workspace, 'acme-support');
rmSync(sampleFolder, { recursive: true, force: true });
/** @type {{ ServiceClient: new (o: { baseUrl: string, token: () => string }) => { close(): Promise<void> } }} */
const { ServiceClient } = require(path.join(repoRoot, 'out', 'src', 'core', 'client.js'));
/** @type {{ pullTenant: (client: unknown, io: unknown, target: { connection: string, baseUrl: string, tenantId: number }) => Promise<unknown> }} */
const { pullTenant } = require(path.join(repoRoot, 'out', 'src', 'core', 'tenant', 'pull.js'));
/** @type {{ DiskFolder: new (root: string) => unknown }} */
const { DiskFolder } = require(path.join(repoRoot, 'out', 'src', 'core', 'tenant', 'disk-folder.js'));
const sampleClient = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
await pullTenant(sampleClient, new DiskFolder(sampleFolder), {
  connection: 'local',
  baseUrl: service.url,
  tenantId: 1,
});
await sampleClient.close();
// The suite of the README's tour (step 4), the same text the UI test of that step runs.
/** @type {{ SAMPLE_SUITE_FILE: string, sampleSuiteText: (connection: string) => string }} */
const { SAMPLE_SUITE_FILE, sampleSuiteText } = require(
  path.join(repoRoot, 'out', 'test', 'service', 'sample-suite.js'),
);
writeFileSync(path.join(workspace, SAMPLE_SUITE_FILE), sampleSuiteText('local'));
// What a user would want: auto-save does not try to upload every keystroke to the service.
const settings = {
  'convai.connections': [{ name: 'local', baseUrl: service.url }],
  'git.openRepositoryInParentFolders': 'never',
  'files.autoSave': 'off',
};
const env = {
  CONVAI_START_CONNECTION: JSON.stringify({ name: 'local', baseUrl: service.url, token: service.adminToken }),
  CONVAI_START_WALKTHROUGH_MARKER: path.join(cacheDir, 'walkthrough-shown'),
};

console.log(`ConvAI local service: ${service.url}`);
console.log(`  admin token: ${service.adminToken}`);
for (const tenant of service.tenantTokens) console.log(`  tenant ${tenant.id} (${tenant.name}) token: ${tenant.token}`);
console.log(
  'The connection "local" to it is set up already, with the admin token: VS Code opens on the ConvAI view, which',
);
console.log(
  'browses it (the first time, beside the Get Started walkthrough). The tokens are for the command-line tool',
);
console.log('(CONVAI_TOKEN) and your own requests.');

/** @type {() => Promise<void>} */
let stopEditor = async () => undefined;
if (desktop) {
  const userDataDir = path.join(cacheDir, 'desktop-user-data');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  // The installed mode's own extensions folder, so the user's own installs play no part and stay untouched.
  const extensionsDir = path.join(cacheDir, 'desktop-extensions');
  const extensionArgs = [`--extensionDevelopmentPath=${startConnection}`];
  if (vsix) {
    rmSync(extensionsDir, { recursive: true, force: true });
    run('code', ['--extensions-dir', extensionsDir, '--install-extension', vsix]);
    extensionArgs.push('--extensions-dir', extensionsDir);
  } else {
    extensionArgs.push(`--extensionDevelopmentPath=${repoRoot}`);
  }
  const child = spawn('code', ['--new-window', '--user-data-dir', userDataDir, ...extensionArgs, workspace], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  stopEditor = async () => void child.kill();
  console.log('Opened VS Code with the extension loaded. Press Ctrl+C to stop the local service.');
} else {
  /** @type {typeof import('../test/harness/code-server')} */
  const harness = require(path.join(repoRoot, 'out', 'test', 'harness', 'code-server.js'));
  const server = await harness.startCodeServer({
    bin: /** @type {string} */ (codeServerBin),
    workspace,
    env,
    userSettings: settings,
    logFile: path.join(cacheDir, 'code-server.log'),
    extensions: [startConnection],
    packages: vsix ? [vsix] : [],
  });
  const payload = vsix ? undefined : harness.developmentPayload(server, repoRoot);
  stopEditor = () => server.close();
  console.log('');
  console.log(
    `Open this URL in a browser (VS Code with the ConvAI extension ${vsix ? `installed from ${path.basename(vsix)}` : 'loaded from source'}):`,
  );
  console.log(`  ${harness.workbenchUrl(server, payload)}`);
  console.log('Press Ctrl+C to stop code-server and the local service.');
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stopEditor();
  await service.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
