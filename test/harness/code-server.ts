// Starts code-server (VS Code's real workbench and Node extension host, served to a browser) and opens its
// workbench in headless Chromium. Shared by the integration suite, UI tests and `npm start`.
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

export interface CodeServerOptions {
  /** The code-server executable (scripts/ensure.mjs `ensureCodeServer()` returns it). */
  bin: string;
  /** The folder the workbench opens. */
  workspace: string;
  /** Added to code-server's environment, which its extension host inherits. */
  env?: Record<string, string>;
  /** Merged over the defaults that keep the workbench free of start-up dialogs. */
  userSettings?: Record<string, unknown>;
  /** Where code-server's own output goes. */
  logFile: string;
  /** Extension folders installed into the throwaway extensions folder (the payload loads only one from source). */
  extensions?: string[];
  /** Packages (.vsix) installed with code-server's --install-extension, as a user installs them. */
  packages?: string[];
  /** code-server's --log: trace, debug, info, warn or error. */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /**
   * Workspace trust on, the folder not trusted: the workbench opens it in Restricted Mode, as VS Code opens a cloned
   * repository. Off by default, so that nothing asks about trust.
   */
  restricted?: boolean;
}

export interface CodeServer {
  url: string;
  port: number;
  workspace: string;
  /** Where its extensions are installed. */
  extensionsDir: string;
  /** Settles when code-server exits, with how it ended. */
  exited: Promise<string>;
  close(): Promise<void>;
}

const startTimeoutMs = 60_000;

const defaultUserSettings = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
};

// Trust on, and the folder opened in Restricted Mode without the modal question that would cover the workbench.
const restrictedUserSettings = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

// The process group, not just the pid: code-server leaves a file-watcher child behind otherwise.
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function waitForListening(child: ChildProcess, exited: Promise<string>, timeoutMs: number): Promise<URL> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`code-server was not listening after ${timeoutMs} ms`)), timeoutMs);
    const onOutput = (chunk: Buffer): void => {
      seen += chunk.toString();
      const address = /HTTP server listening on (http:\/\/\S+)/.exec(seen)?.[1];
      if (address) finish(() => resolve(new URL(address)));
    };
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onOutput);
      child.stderr?.off('data', onOutput);
      settle();
    };
    const fail = (error: Error): void => finish(() => reject(error));
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    void exited.then((how) => fail(new Error(`code-server exited before listening (${how})`)));
  });
}

function installPackage(bin: string, vsix: string, userDataDir: string, extensionsDir: string): void {
  const install = spawnSync(
    bin,
    ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    throw new Error(
      `code-server could not install ${vsix} (${install.error?.message ?? `exit code ${install.status}`}): ${install.stderr || install.stdout}`,
    );
  }
}

/** Starts code-server on a free loopback port without authentication, in throwaway profile folders. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-code-server-'));
  const userDataDir = path.join(profile, 'user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      { ...defaultUserSettings, ...(options.restricted ? restrictedUserSettings : {}), ...options.userSettings },
      null,
      2,
    ),
  );
  // Its own config file, so a developer's ~/.config/code-server (password, bind address) plays no part.
  const configFile = path.join(profile, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\n');
  const extensionsDir = path.join(profile, 'extensions');
  for (const folder of options.extensions ?? []) {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    fs.cpSync(folder, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
      recursive: true,
    });
  }
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  try {
    for (const vsix of options.packages ?? []) installPackage(options.bin, vsix, userDataDir, extensionsDir);
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const log = fs.createWriteStream(options.logFile);

  const child = spawn(
    options.bin,
    [
      '--config',
      configFile,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.restricted ? [] : ['--disable-workspace-trust']),
      ...(options.logLevel ? ['--log', options.logLevel] : []),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      options.workspace,
    ],
    // The tests read the extension's own log files below the user data folder.
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env, CONVAI_CODE_SERVER_USER_DATA: userDataDir },
    },
  );
  // Two sources into one log: neither may end it, close() does.
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`));
  });
  // Should this process die abruptly, code-server (in its own process group) must not outlive it.
  const killOnExit = (): void => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  const close = async (): Promise<void> => {
    process.off('exit', killOnExit);
    killGroup(child, 'SIGTERM');
    const stillRunning = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5_000).unref()),
    ]);
    // SIGTERM lets code-server shut down cleanly; whatever is left of the group after that is killed.
    killGroup(child, 'SIGKILL');
    if (stillRunning) await exited;
    child.stdout.unpipe(log);
    child.stderr.unpipe(log);
    log.end();
    fs.rmSync(profile, { recursive: true, force: true });
  };

  try {
    const url = await waitForListening(child, exited, startTimeoutMs);
    return { url: url.origin, port: Number(url.port), workspace: options.workspace, extensionsDir, exited, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The workbench payload that loads an extension from source and, optionally, runs its tests. */
export function developmentPayload(
  server: CodeServer,
  extensionDevelopmentPath: string,
  extensionTestsPath?: string,
): [string, string][] {
  const remote = (file: string): string => `vscode-remote://127.0.0.1:${server.port}${file}`;
  const payload: [string, string][] = [['extensionDevelopmentPath', remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  return payload;
}

export function workbenchUrl(server: CodeServer, payload?: [string, string][]): string {
  const query = new URLSearchParams({ folder: server.workspace });
  if (payload) query.set('payload', JSON.stringify(payload));
  return `${server.url}/?${query.toString()}`;
}

export interface Workbench {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Opens `url` in headless Chromium. The browser console's errors (the workbench's and the extension host's)
 * go to `consoleLogFile`, written synchronously so it is complete whenever the caller reads it.
 */
export async function openWorkbench(url: string, consoleLogFile: string): Promise<Workbench> {
  fs.writeFileSync(consoleLogFile, '');
  const keep = (line: string): void => fs.appendFileSync(consoleLogFile, `${line}\n`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') keep(message.text());
    });
    page.on('pageerror', (error) => keep(`page error: ${error.stack ?? error.message}`));
    // VS Code objects to unloading while changes are not backed up yet. A reload that a test asked for goes ahead,
    // as when a user confirms; the note explains lost changes. Any other dialog is dismissed, Playwright's default.
    page.on('dialog', (dialog) => {
      const leave = dialog.type() === 'beforeunload';
      if (leave)
        keep('the workbench warned that unsaved changes may be lost as it unloaded; the harness left the page anyway');
      // Fails only when the page is gone already, and then there is nothing left to answer.
      (leave ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    return { browser, page, close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
