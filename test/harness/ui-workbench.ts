// A live workbench for the UI tests: the local service, code-server with the extension loaded from source (no
// extensionTestsPath, so nothing runs inside VS Code but the extension itself) and headless Chromium on it.
// The dev-only start-connection extension adds the connection `local` with the admin token, as `npm start` does.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RunningService } from '../service/server';
import { CodeServer, developmentPayload, openWorkbench, startCodeServer, Workbench, workbenchUrl } from './code-server';
import { startLocalService } from './local-service';
import { repoRoot, testOutputDir } from './paths';

export const uiCodeServerLog = path.join(testOutputDir, 'ui-code-server.log');
export const uiBrowserConsoleLog = path.join(testOutputDir, 'ui-browser-console.log');

/** The connection the start-connection extension adds; the tree shows it under this name. */
export const uiConnectionName = 'local';

// Everything that would put a dialog, notification or editor over the tree the tests look at.
export const quietSettings = {
  'git.openRepositoryInParentFolders': 'never',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  // code-server's web default is afterDelay; desktop VS Code's is off, which is what the screenshots show.
  'files.autoSave': 'off',
  // Without animations a walkthrough step takes focus as it expands, not 250 ms later, when it would pull the editor
  // that its button's command opens back into the walkthrough's group.
  'workbench.reduceMotion': 'on',
};

export interface UiWorkbench {
  page: Page;
  service: RunningService;
  /** The folder VS Code has open, for tests that put files into the workspace. */
  workspace: string;
  /** code-server's extensions folder, where a package is installed. */
  extensionsDir: string;
  /** Where a test asks the workbench to open a file by its URI (test/harness/ui-opener). */
  openRequests: string;
  close(): Promise<void>;
}

export interface UiWorkbenchOptions {
  /** The extension is this package, installed as a user installs it, instead of the repository's folder. */
  vsix?: string;
  /**
   * The folder opens in Restricted Mode (trust on, the folder not trusted) with this `.vscode/settings.json`, as a
   * cloned repository's. Its code-server and browser logs are apart from the shared workbench's.
   */
  restrictedWorkspaceSettings?: Record<string, unknown>;
}

export const uiRestrictedCodeServerLog = path.join(testOutputDir, 'ui-restricted-code-server.log');
export const uiRestrictedBrowserConsoleLog = path.join(testOutputDir, 'ui-restricted-browser-console.log');

/** Starts all three; on failure stops what did start. `codeServerBin` comes from scripts/test.mjs. */
export async function startUiWorkbench(
  codeServerBin: string | undefined,
  options: UiWorkbenchOptions = {},
): Promise<UiWorkbench> {
  if (!codeServerBin)
    throw new Error('no code-server given (CONVAI_CODE_SERVER); run the UI tests through `npm test -- ui`');
  const { vsix, restrictedWorkspaceSettings } = options;
  const restricted = restrictedWorkspaceSettings !== undefined;
  fs.mkdirSync(testOutputDir, { recursive: true });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-ui-'));
  const openRequests = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-ui-open-'));
  if (restricted) {
    fs.mkdirSync(path.join(workspace, '.vscode'));
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      JSON.stringify(restrictedWorkspaceSettings, null, 2),
    );
  }
  let service: RunningService | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const close = async (): Promise<void> => {
    // Each stops what it started even when another failed to.
    await Promise.allSettled([workbench?.close(), server?.close(), service?.close()]);
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(openRequests, { recursive: true, force: true });
  };
  try {
    service = await startLocalService();
    const connection = { name: uiConnectionName, baseUrl: service.url, token: service.adminToken };
    server = await startCodeServer({
      bin: codeServerBin,
      workspace,
      env: { CONVAI_START_CONNECTION: JSON.stringify(connection), CONVAI_UI_OPEN_REQUESTS: openRequests },
      userSettings: quietSettings,
      logFile: restricted ? uiRestrictedCodeServerLog : uiCodeServerLog,
      restricted,
      extensions: [
        path.join(repoRoot, 'scripts', 'start-connection'),
        path.join(repoRoot, 'test', 'harness', 'ui-opener'),
      ],
      ...(vsix ? { packages: [vsix] } : {}),
    });
    workbench = await openWorkbench(
      workbenchUrl(server, vsix ? undefined : developmentPayload(server, repoRoot)),
      restricted ? uiRestrictedBrowserConsoleLog : uiBrowserConsoleLog,
    );
    // Lists render only their visible rows: a tall page keeps an expanded tenant's rows all in the DOM.
    await workbench.page.setViewportSize({ width: 1400, height: 900 });
    // Below mocha's 60 s per test, so that a wait that never ends fails with Playwright's account of it.
    workbench.page.setDefaultTimeout(20_000);
    return { page: workbench.page, service, workspace, extensionsDir: server.extensionsDir, openRequests, close };
  } catch (error) {
    await close();
    throw error;
  }
}
