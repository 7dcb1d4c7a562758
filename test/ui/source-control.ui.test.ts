// A pulled tenant folder in the Source Control view, as a user meets it: a prompt's text edited on disk shows as a
// change of its own Markdown file, and clicking it opens the service's version beside the folder's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ServiceClient } from '../../src/core/client';
import { diskFolder } from '../../src/core/tenant/folder-io';
import { pullTenant } from '../../src/core/tenant/pull';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const TENANT = 1;
const ADDED = 'Treat a refund request as a return.';

/** The row of the edited text (its aria-label is the file's name and the row's tooltip), whatever other lists show. */
function changeRow(page: Page): Locator {
  return page.locator('.scm-view .monaco-list-row[aria-label^="order-triage.system.md, Changed · AI Prompt \\"Order Triage\\": system"]');
}

describe('the Source Control view of a pulled tenant folder', () => {
  let folder = '';
  let pulledText = '';
  let client: ServiceClient;

  before(async () => {
    const { service, workspace } = workbench();
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    folder = path.join(workspace, 'acme');
  });
  after(async () => {
    await client.close();
    // The list goes with its manifest: the next tests see an empty Source Control view.
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('lists a prompt text edited since the pull', async () => {
    const { page, service } = workbench();
    // The extension is active once the ConvAI view lists the connection.
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await pullTenant(client, diskFolder(folder), { connection: uiConnectionName, baseUrl: service.url, tenantId: TENANT });
    const system = path.join(folder, 'ai_prompts', 'order-triage.system.md');
    // Other tests edit this text on the service too: the check is that the diff shows the service's, whatever it is.
    pulledText = fs.readFileSync(system, 'utf8');
    assert.ok(pulledText.trim() !== '', 'the prompt has a system text');
    fs.writeFileSync(system, `${pulledText}\n${ADDED}\n`);
    await page.locator('.activitybar .action-label[aria-label^="Source Control"]').click();
    await changeRow(page).waitFor();
    assert.equal(await page.locator('.scm-view .scm-editor:visible').count(), 0, 'no commit message box: a tenant folder takes none');
  });

  it('opens the service\'s version beside the folder\'s', async () => {
    const { page } = workbench();
    await changeRow(page).click();
    await page.locator('.tabs-container .tab.active', { hasText: `order-triage.system.md (${uiConnectionName} ↔ folder)` }).waitFor();
    const diff = page.locator('.monaco-diff-editor');
    await diff.locator('.editor.original .view-lines', { hasText: pulledText.split('\n')[0] ?? pulledText }).waitFor();
    await diff.locator('.editor.modified .view-lines', { hasText: ADDED }).waitFor();
    assert.equal(await diff.locator('.editor.original .view-lines', { hasText: ADDED }).count(), 0, 'the service does not have the added line');
    await saveScreenshot(page, 'source-control', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });

  it('shows the plan rendered beside the editor, with the edited text among the changes', async () => {
    const { page } = workbench();
    await runCommand(page, 'ConvAI: Plan Push');
    await page.locator('.tabs-container .tab', { hasText: 'Plan of acme.md' }).waitFor();
    const preview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await preview.locator('h1', { hasText: 'Push plan: tenant 1' }).waitFor();
    await preview.locator('body', { hasText: 'Order Triage' }).waitFor();
    await saveScreenshot(page, 'plan-preview');
    await runCommand(page, 'View: Close All Editors');
  });
});
