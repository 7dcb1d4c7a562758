// Cancel of a pull of a tenant of 50,000 prompts, as a user meets it: the progress notification's Cancel stops the
// pull, the folder holds what was written so far and a manifest that lists exactly that, and the next pull into the
// same folder completes it.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { saveScreenshot } from '../harness/screenshots';
import { startLocalService } from '../harness/local-service';
import type { RunningService } from '../service/server';
import { LARGE_TENANT, LARGE_TENANT_SHAPE } from '../service/large-tenant';
import { choose, runCommand } from './tree-view';
import { removeAfterWorkbench, workbench } from './workbench';
import { addConnection, removeConnection } from './connections';

const CONNECTION = 'bulk';

interface ManifestEntry {
  segment: string;
  file: string;
}

/**
 * Pulls into `folder`, outside the workspace, chosen in code-server's open dialog (a quick input that takes a typed
 * path): in the workspace, the workbench's watching of 165,000 new files, and of their removal, slowed the tests after.
 */
async function startPull(page: Page, folder: string): Promise<void> {
  await runCommand(page, 'ConvAI: Pull Tenant to Folder…');
  await choose(page, CONNECTION);
  await choose(page, LARGE_TENANT);
  await choose(page, 'Choose a folder…');
  // The dialog starts in the workspace, and puts its path in the input once it has listed it: a path typed before
  // then is replaced. So the dialog is awaited at rest there, then the typed folder's listing (an empty folder shows
  // only its way up) with the typed path still in the input.
  await dialogShows(page, `${workbench().workspace}/`, false);
  await page.locator('.quick-input-widget input').fill(`${folder}/`);
  await dialogShows(page, `${folder}/`, true);
  await page.locator('.quick-input-widget .monaco-button', { hasText: 'Pull Here' }).click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/**
 * Waits until the open dialog holds `value` and has listed that folder: any rows, or (`empty`) only its way up, as
 * an empty folder shows. Says what it shows otherwise.
 */
async function dialogShows(page: Page, value: string, empty: boolean): Promise<void> {
  const shows = (): unknown => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): { value: string } | null;
          querySelectorAll(s: string): Iterable<{ textContent: string | null; getClientRects(): { length: number } }>;
        };
      }
    ).document;
    // Shown rows only: the rows of earlier quick picks stay in the page, hidden.
    const rows = [...doc.querySelectorAll('.quick-input-list .monaco-list-row .label-name')]
      .filter((row) => row.getClientRects().length > 0)
      .map((row) => (row.textContent ?? '').trim());
    return { value: doc.querySelector('.quick-input-widget input')?.value ?? '', rows };
  };
  await page
    .waitForFunction(
      ({ value, empty }) => {
        const doc = (
          globalThis as unknown as {
            document: {
              querySelector(s: string): { value: string } | null;
              querySelectorAll(
                s: string,
              ): Iterable<{ textContent: string | null; getClientRects(): { length: number } }>;
            };
          }
        ).document;
        // Shown rows only: the rows of earlier quick picks stay in the page, hidden.
        const rows = [...doc.querySelectorAll('.quick-input-list .monaco-list-row .label-name')]
          .filter((row) => row.getClientRects().length > 0)
          .map((row) => (row.textContent ?? '').trim());
        return (
          doc.querySelector('.quick-input-widget input')?.value === value &&
          (empty ? rows.length === 1 && rows[0] === '..' : rows.length > 0)
        );
      },
      { value, empty },
    )
    .catch(async (error: unknown) => {
      throw new Error(`the open dialog shows ${JSON.stringify(await page.evaluate(shows))}, not ${value}`, {
        cause: error,
      });
    });
}

function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

function manifestEntries(folder: string): ManifestEntry[] {
  return (
    JSON.parse(fs.readFileSync(path.join(folder, 'convai-tenant.json'), 'utf8')) as { resources: ManifestEntry[] }
  ).resources;
}

const prompts = (entries: readonly ManifestEntry[]): ManifestEntry[] =>
  entries.filter((entry) => entry.segment === 'ai_prompts');

describe('Cancel of a pull of a tenant of 50,000 prompts', function () {
  this.timeout(240_000);
  let large: RunningService | undefined;
  let folder = '';

  before(async () => {
    const { page } = workbench();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-pull-cancel-'));
    large = await startLocalService({ largeTenant: true });
    await addConnection(page, CONNECTION, large.url, large.adminToken);
  });

  after(async () => {
    const { page } = workbench();
    // A dialog a failed test left open would take the keys of the tests after it.
    if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
    removeAfterWorkbench(folder);
    await large?.close();
    await removeConnection(page, CONNECTION);
  });

  it('stops on Cancel, leaving a folder whose manifest lists exactly the files written', async () => {
    const { page } = workbench();
    await startPull(page, folder);
    // Details are written a batch (500) at a time once the batch's requests are answered, after the tenant and its
    // 1,000 integrations: at 10,000 resources answered, thousands of prompts are on disk, and tens of thousands not.
    const progress = toast(page, `Pulling ${LARGE_TENANT}`);
    await progress.filter({ hasText: /\b\d{5,} of \d+ resources/ }).waitFor({ timeout: 120_000 });
    const cancel = progress.locator('.monaco-button', { hasText: 'Cancel' });
    assert.ok(await cancel.isVisible(), 'the progress offers Cancel');
    await saveScreenshot(page, 'pull-cancel');
    await cancel.click();
    // Stopped, the pull writes the manifest of what it wrote, then says so: once that shows, the folder is as it left it.
    const stopped = toast(page, `Pull of ${LARGE_TENANT} stopped`);
    await stopped.waitFor();
    assert.match(await stopped.innerText(), /recorded in its manifest\. Pull again into it to complete it\./);
    assert.equal(await toast(page, /was cancelled/).count(), 0, 'Cancel is no failure');
    await progress.waitFor({ state: 'detached' });
    const entries = manifestEntries(folder);
    const missing = entries.filter((entry) => !fs.existsSync(path.join(folder, entry.file)));
    assert.deepEqual(missing, [], 'every resource the manifest lists has its file');
    // Nor is a prompt's file there that the manifest does not list: a next pull would take it for the user's own.
    const promptFiles = fs.readdirSync(path.join(folder, 'ai_prompts')).filter((name) => name.endsWith('.json'));
    const listed = prompts(entries);
    assert.equal(promptFiles.length, listed.length, 'the prompts on disk are the ones the manifest lists');
    assert.ok(
      listed.length > 0 && listed.length < LARGE_TENANT_SHAPE.prompts,
      `${listed.length} prompts pulled before Cancel`,
    );
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('leaves a folder that the next pull into it completes', async () => {
    // The command-line tool's pull, the same core as the command's. The command's own pull of the rest takes
    // 12-14 s here now that its progress is thinned, but with it the next test once missed its notification in
    // the full suite (cause not found), so this suite leaves the workbench as the tests after it expect.
    assert.ok(large);
    await promisify(execFile)(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'pull', folder], {
      env: { ...process.env, CONVAI_TOKEN: large.adminToken },
      maxBuffer: 64 * 1024 * 1024,
    });
    const listed = prompts(manifestEntries(folder));
    assert.equal(listed.length, LARGE_TENANT_SHAPE.prompts);
    // A sample across the tenant's prompts, those of the first pull and those of the second.
    const sample = listed.filter((_, index) => index % 997 === 0);
    const missing = sample.filter((entry) => !fs.existsSync(path.join(folder, entry.file)));
    assert.deepEqual(missing, [], `of ${sample.length} prompts sampled`);
  });
});
