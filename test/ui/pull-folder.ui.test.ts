// Pull Tenant to Folder from the palette, as a new user meets it: the tenant, then a new folder of the workspace named
// after it (made by the command: an open dialog cannot always make one), and the pulled files there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiConnectionName } from '../harness/ui-workbench';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

describe('Pull Tenant to Folder', () => {
  let folder = '';

  before(() => {
    folder = path.join(workbench().workspace, 'voicebox-telecom');
    fs.rmSync(folder, { recursive: true, force: true });
  });
  after(() => {
    // Nothing of it stays for the next tests: the Source Control view lists a pulled folder's changes.
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('pulls into a new folder of the workspace named after the tenant, which it makes', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Pull Tenant to Folder…');
    await choose(page, uiConnectionName);
    await choose(page, 'Voicebox Telecom');
    await choose(page, 'voicebox-telecom', 'a folder of the workspace for this tenant');
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'Pulled' }).filter({ hasText: 'Voicebox Telecom' }).waitFor();
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'convai-tenant.json'), 'utf8')) as { tenantId: number };
    assert.equal(manifest.tenantId, 2);
    assert.ok(fs.existsSync(path.join(folder, 'tenant.json')), 'the tenant\'s file is there');
    await page.keyboard.press('Escape');
  });
});
