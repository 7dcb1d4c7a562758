// What changed on the service behind a pulled folder, as a user meets it in the Source Control view: after Refresh,
// a "Changed on the service" group lists a prompt a colleague edited in the service, its row opens the folder's text
// beside the service's, and Take Service Version writes the service's into the folder. Then a conflict: Plan Push
// names it in the status bar, and Push, refused, offers to pull that folder again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { pullTenant } from '../../src/core/tenant/pull';
import { saveScreenshot } from '../harness/screenshots';
import { waitInFolder } from '../harness/wait';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient } from './service';
import { openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';
import { notification } from './notifications';

const PULLED = 'Greet the caller by name.';
const THEIRS = 'Greet the caller by name, then ask for the order number.';

/** A row of the Source Control view, by the start of its aria-label (its label, then its tooltip). */
function scmRow(page: Page, label: string): Locator {
  return page.locator(`.scm-view .monaco-list-row[aria-label^="${label.replace(/"/g, '\\"')}"]`);
}

/** The open diff: `original` is the folder's side, `modified` the service's. */
function diffSide(page: Page, side: 'original' | 'modified', hasText: string): Locator {
  return page.locator(`.monaco-diff-editor .editor.${side} .view-lines`, { hasText });
}

describe('Changed on the service, in the Source Control view', () => {
  let client: ServiceClient;
  let folder = '';
  let tenantId = 0;
  let promptId = 0;

  before(async () => {
    const { service, workspace } = workbench();
    client = adminClient();
    folder = path.join(workspace, 'drift-demo');
    tenantId = (
      await client.create(kindById('tenant'), { name: 'Drift Demo', email: 'ops@drift-demo.example', package: 'voice' })
    ).id as number;
    promptId = (
      await client.create(
        kindById('prompt'),
        { name: 'Greeting', description: 'Opens every call', system: PULLED },
        tenantId,
      )
    ).id as number;
    await pullTenant(client, new DiskFolder(folder), { connection: uiConnectionName, baseUrl: service.url, tenantId });
  });
  after(async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    await client.delete(kindById('tenant'), tenantId);
    await client.close();
  });

  it("lists a prompt changed on the service after Refresh, and opens the folder's text beside the service's", async () => {
    const { page } = workbench();
    // The extension is active once the ConvAI view lists the connection.
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await client.update(
      kindById('prompt'),
      promptId,
      { system: THEIRS, description: 'Opens every call, asks for the order' },
      tenantId,
    );
    await page.locator('.activitybar .action-label[aria-label^="Source Control"]').click();
    await runCommand(page, 'ConvAI: Refresh Tenant Folder Changes');
    const row = scmRow(page, 'Greeting: system');
    await row.waitFor();
    await scmRow(page, 'Greeting: description').waitFor();
    await row.click();
    await page
      .locator('.tabs-container .tab.active', {
        hasText: `greeting.system.md (folder ↔ service: ${uiConnectionName})`,
      })
      .waitFor();
    await diffSide(page, 'modified', 'ask for the order number').waitFor();
    assert.equal(
      await diffSide(page, 'original', 'ask for the order number').count(),
      0,
      "the folder does not have the colleague's text",
    );
    await saveScreenshot(page, 'drift', { readme: true });
  });

  it("takes the service's version into the folder from the row", async () => {
    const { page } = workbench();
    const row = scmRow(page, 'Greeting: system');
    await row.hover();
    await row.locator('.action-label[aria-label="Take Service Version"]').click();
    await row.waitFor({ state: 'detached' });
    await scmRow(page, 'Greeting: description').waitFor({ state: 'detached' });
    // The next test edits the JSON, so this one ends once the service's description is in it, not only once the rows
    // have gone: the text parts are written before the JSON, and one run that edited it just after found no change.
    const json = path.join(folder, 'ai_prompts', 'greeting.json');
    const taken = () => fs.readFileSync(json, 'utf8').includes('"Opens every call, asks for the order"');
    assert.ok(
      await waitInFolder(path.dirname(json), taken, 20_000),
      "greeting.json never got the service's description",
    );
    const system = fs.readFileSync(path.join(folder, 'ai_prompts', 'greeting.system.md'), 'utf8');
    assert.equal(system.replace(/\n$/, ''), THEIRS);
    await runCommand(page, 'View: Close All Editors');
  });

  it('names the conflict Plan Push found in the status bar, and a refused Push offers Pull Again for the folder', async () => {
    const { page } = workbench();
    const file = path.join(folder, 'ai_prompts', 'greeting.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"Opens every call, asks for the order"', '"Mine"'));
    await client.update(kindById('prompt'), promptId, { description: "A colleague's" }, tenantId);
    // The folder's change, opened: Plan Push and Push from the palette take the folder of the active editor.
    const change = scmRow(page, 'greeting.json, ');
    await scmRow(page, 'greeting.json, Changed').click();
    await page.locator('.tabs-container .tab.active', { hasText: 'greeting.json' }).waitFor();
    await runCommand(page, 'ConvAI: Plan Push');
    await page.locator('.part.statusbar .statusbar-item', { hasText: '1 conflict' }).waitFor();
    await scmRow(page, 'greeting.json, Conflict').waitFor();

    // Back from the preview, which has the keyboard, to the folder's file.
    await change.click();
    await page.locator('.tabs-container .tab.active', { hasText: 'greeting.json' }).waitFor();
    await runCommand(page, 'ConvAI: Push');
    const refused = await notification(page, 'Nothing was sent');
    await refused.getByRole('button', { name: 'Pull Again' }).click();
    // Pulled from the same tenant, asking nothing: the colleague's description is now what the folder changes.
    await scmRow(page, 'greeting.json, Changed').waitFor();
    await page.locator('.part.statusbar .statusbar-item', { hasText: '1 change' }).waitFor();
    assert.match(fs.readFileSync(file, 'utf8'), /"description": "Mine"/, "the pull kept the folder's edit");
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'View: Close All Editors');
  });
});
