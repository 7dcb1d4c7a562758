// A pulled tenant folder in the Source Control view, as a user meets it: a prompt's text edited on disk shows as a
// change of its own Markdown file, and clicking it opens the service's version beside the folder's; a push, or a
// pull by the CLI, brings that open diff's service side up to date.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { pullTenant } from '../../src/core/tenant/pull';
import { runCli } from '../contract/cli-process';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { samplePromptId } from './service';
import { openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const TENANT = 1;
const ADDED = 'Treat a refund request as a return.';
const MINE = "Answer in the customer's language.";
const THEIRS = 'Escalate a complaint about a late order.';

/** The row of the edited text (its aria-label is the file's name and the row's tooltip), whatever other lists show. */
function changeRow(page: Page): Locator {
  return page.locator(
    '.scm-view .monaco-list-row[aria-label^="order-triage.system.md, Changed · AI Prompt \\"Order Triage\\": system"]',
  );
}

/** The open diff: `original` is the service's side, `modified` the folder's. */
function diffSide(page: Page, side: 'original' | 'modified', hasText: string): Locator {
  return page.locator(`.monaco-diff-editor .editor.${side} .view-lines`, { hasText });
}

/** A line the open diff marks as added in the folder: there is none once both sides hold the same text. */
function addedLine(page: Page): Locator {
  return page.locator('.monaco-diff-editor .editor.modified .line-insert').first();
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
    // Should a test fail before the last one deletes it.
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('lists a prompt text edited since the pull', async () => {
    const { page, service } = workbench();
    // The extension is active once the ConvAI view lists the connection.
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await pullTenant(client, new DiskFolder(folder), {
      connection: uiConnectionName,
      baseUrl: service.url,
      tenantId: TENANT,
    });
    const system = path.join(folder, 'ai_prompts', 'order-triage.system.md');
    // Other tests edit this text on the service too: the check is that the diff shows the service's, whatever it is.
    pulledText = fs.readFileSync(system, 'utf8');
    assert.ok(pulledText.trim() !== '', 'the prompt has a system text');
    fs.writeFileSync(system, `${pulledText}\n${ADDED}\n`);
    await page.locator('.activitybar .action-label[aria-label^="Source Control"]').click();
    await changeRow(page).waitFor();
    assert.equal(
      await page.locator('.scm-view .scm-editor:visible').count(),
      0,
      'no commit message box: a tenant folder takes none',
    );
  });

  it("opens the service's version beside the folder's", async () => {
    const { page } = workbench();
    await changeRow(page).click();
    await page
      .locator('.tabs-container .tab.active', {
        hasText: `order-triage.system.md (service: ${uiConnectionName} ↔ folder)`,
      })
      .waitFor();
    await diffSide(page, 'original', pulledText.split('\n')[0] ?? pulledText).waitFor();
    await diffSide(page, 'modified', ADDED).waitFor();
    assert.equal(await diffSide(page, 'original', ADDED).count(), 0, 'the service does not have the added line');
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
    // The text's diff is named by the file that holds it, not by the prompt's JSON file.
    await preview.locator('code', { hasText: 'ai_prompts/order-triage.system.md' }).first().waitFor();

    // Put behind the diff of the change, in its own group, Plan Push again brings it to the front, still one tab.
    const planTab = page.locator('.tabs-container .tab', { hasText: 'Plan of acme.md' });
    await planTab.click();
    await changeRow(page).click();
    await planTab.and(page.locator('.tab.active')).waitFor({ state: 'detached' });
    await runCommand(page, 'ConvAI: Plan Push');
    await planTab.and(page.locator('.tab.active')).waitFor();
    assert.equal(await planTab.count(), 1, 'one preview of the plan');
    await runCommand(page, 'View: Close All Editors');
  });

  it("after Push, the open diff shows the pushed text as the service's, and the change leaves the list", async () => {
    const { page } = workbench();
    await changeRow(page).click();
    await diffSide(page, 'modified', ADDED).waitFor();
    await addedLine(page).waitFor();
    // Push from the palette takes the folder of the file in the active editor: the diff's.
    await runCommand(page, 'ConvAI: Push');
    await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Push' }).click();
    await diffSide(page, 'original', ADDED).waitFor();
    await addedLine(page).waitFor({ state: 'detached' });
    await changeRow(page).waitFor({ state: 'detached' });
    const id = await samplePromptId(client, TENANT, 'Order Triage');
    // The file's final newline is the file's, not the text's.
    assert.equal((await client.get(kindById('prompt'), id, TENANT)).system, `${pulledText}\n${ADDED}`);
  });

  it("after `convai pull` brings a change made on the service, the open diff shows it as the service's", async () => {
    const { page, service } = workbench();
    const system = path.join(folder, 'ai_prompts', 'order-triage.system.md');
    const pushed = fs.readFileSync(system, 'utf8');
    fs.writeFileSync(system, `${pushed}${MINE}\n`);
    await changeRow(page).click();
    await diffSide(page, 'modified', MINE).waitFor();
    await diffSide(page, 'original', ADDED).waitFor();
    const id = await samplePromptId(client, TENANT, 'Order Triage');
    await client.update(kindById('prompt'), id, { system: `${pushed}${THEIRS}\n` }, TENANT);
    const pulled = await runCli(['pull', folder], folder, { CONVAI_TOKEN: service.adminToken });
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, /^kept ai_prompts\/order-triage\.system\.md \(your change: system\)$/m);
    await diffSide(page, 'original', THEIRS).waitFor();
    assert.equal(await diffSide(page, 'original', MINE).count(), 0, "the service does not have the folder's line");
    assert.equal(await diffSide(page, 'modified', THEIRS).count(), 0, "the pull kept the folder's own text");
    await runCommand(page, 'View: Close All Editors');
  });

  it('takes the list and its status out of the workbench once the folder is deleted', async () => {
    const { page } = workbench();
    // The folder's text changed since the CLI's pull, which no plan has checked against the service since.
    const status = page.locator('.part.statusbar .statusbar-item', { hasText: '1 change, conflicts not checked' });
    await status.waitFor();
    fs.rmSync(folder, { recursive: true, force: true });
    await changeRow(page).waitFor({ state: 'detached' });
    await status.waitFor({ state: 'detached' });
  });
});
