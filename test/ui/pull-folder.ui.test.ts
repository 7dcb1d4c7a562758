// Pull Tenant to Folder from the palette, as a new user meets it: the tenant, then a new folder of the workspace named
// after it (made by the command: an open dialog cannot always make one), and the pulled files there; or a chosen
// folder that holds other files, which the command says plainly, offering a new folder inside it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { uiConnectionName } from '../harness/ui-workbench';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { notification } from './notifications';
import { workbench } from './workbench';

/** Starts a pull of a tenant from the palette, up to the question where it goes. */
async function startPull(page: Page, tenant: string): Promise<void> {
  await runCommand(page, 'ConvAI: Pull Tenant to Folder…');
  await choose(page, uiConnectionName);
  await choose(page, tenant);
}

function pulled(page: Page, tenant: string): Promise<Locator> {
  return notification(page, new RegExp(`Pulled \\d+ resources of ${tenant}`));
}

function pulledTenantId(folder: string): number {
  return (JSON.parse(fs.readFileSync(path.join(folder, 'convai-tenant.json'), 'utf8')) as { tenantId: number })
    .tenantId;
}

describe('Pull Tenant to Folder', () => {
  /** What the tests make in the workspace: the pulled folders, and a folder of the user's own beside them. */
  const made = ['voicebox-telecom', 'acme-support', 'notes'];
  let workspace = '';

  before(() => {
    workspace = workbench().workspace;
    for (const name of made) fs.rmSync(path.join(workspace, name), { recursive: true, force: true });
    fs.mkdirSync(path.join(workspace, 'notes'));
    fs.writeFileSync(path.join(workspace, 'notes', 'todo.txt'), 'Ask about the voice package.\n');
  });
  after(() => {
    // Nothing of it stays for the next tests: the Source Control view lists a pulled folder's changes.
    for (const name of made) fs.rmSync(path.join(workspace, name), { recursive: true, force: true });
  });

  it('pulls into a new folder of the workspace named after the tenant, which it makes', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await startPull(page, 'Voicebox Telecom');
    await choose(page, 'voicebox-telecom', 'a folder of the workspace for this tenant');
    await pulled(page, 'Voicebox Telecom');
    const folder = path.join(workspace, 'voicebox-telecom');
    assert.equal(pulledTenantId(folder), 2);
    assert.ok(fs.existsSync(path.join(folder, 'tenant.json')), "the tenant's file is there");
    // Not Escape: toasts hidden with it keep the next command's "Pulled …" from showing as a toast.
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('says plainly when the chosen folder holds other files, and pulls into a new folder inside it instead', async () => {
    const { page } = workbench();
    const before = fs.readdirSync(workspace);
    await startPull(page, 'Acme Support');
    await choose(page, 'Choose a folder…');
    // code-server's open dialog is a quick input that starts in the workspace, the root of which holds other files;
    // it is ready once it lists the workspace's folders.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes' }).waitFor();
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'Pull Here' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const said = await dialog.innerText();
    assert.ok(said.includes(`${workspace} holds other files and no pulled tenant`), said);
    await dialog.getByRole('button', { name: 'Pull into acme-support/ inside it' }).click();
    await pulled(page, 'Acme Support');
    assert.equal(pulledTenantId(path.join(workspace, 'acme-support')), 1);
    assert.deepEqual(
      fs.readdirSync(workspace).filter((name) => !before.includes(name)),
      ['acme-support'],
      'nothing was written beside the other files',
    );
    await runCommand(page, 'Notifications: Clear All Notifications');
  });
});
