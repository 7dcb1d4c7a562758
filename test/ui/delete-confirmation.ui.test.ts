// Deleting from the tree asks first, naming what it knows in the tenant to refer to the resource (an open document's
// detail here) without fetching every prompt, and saying where it looked; Cancel sends nothing.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { expand, openConvAiView, treeRow } from './tree-view';
import { workbench } from './workbench';

const TENANT = 1;
const prompts = kindById('prompt');

describe('deleting a resource others refer to', () => {
  let service: ServiceClient;
  before(() => {
    const { service: running } = workbench();
    service = new ServiceClient({ baseUrl: running.url, token: () => running.adminToken });
  });
  after(async () => service.close());

  it('lists the referring resources it knows of in the confirmation, fetching no other prompt, and Cancel keeps the resource', async () => {
    // In the sample data, "Support Greeting" hands over to "Order Triage" (next_prompt_id).
    const all = await Promise.all(
      (await service.list(prompts, TENANT)).map((p) => service.get(prompts, p.id as number, TENANT)),
    );
    const target = all.find((p) => p.name === 'Order Triage');
    const referrer = all.find((p) => p.next_prompt_id === target?.id);
    assert.ok(target && referrer, 'the sample data has a prompt chain');

    const { page } = workbench();
    const tree = await openConvAiView(page);
    await expand(treeRow(tree, uiConnectionName, 1));
    await expand(treeRow(tree, 'Acme Support', 2));
    await expand(treeRow(tree, 'AI Prompts', 3));
    // The referrer's link is in its detail alone: open, its detail is known to the delete.
    await treeRow(tree, String(referrer.name), 4).click();
    await page
      .locator('.monaco-editor .view-lines', { hasText: new RegExp(String(referrer.name).replace(/ /g, '.')) })
      .first()
      .waitFor();
    const { service: running } = workbench();
    await fetch(`${running.url}/__test/requests`, { method: 'DELETE' });
    await treeRow(tree, 'Order Triage', 4).click({ button: 'right' });
    // VS Code's menus act on the focused item; the keyboard is the dependable way to choose one.
    await page.locator('.context-view .monaco-menu .action-label', { hasText: 'Delete Resource…' }).hover();
    await page.keyboard.press('Enter');

    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, /Delete "Order Triage", AI Prompt \d+ of tenant 1 on local\?/);
    assert.ok(
      text.includes(`"${String(referrer.name)}" (#${String(referrer.id)}) refers to it through next_prompt_id`),
      text,
    );
    assert.match(text, /Looked only at what is already known/);
    const log = (await (await fetch(`${running.url}/__test/requests`)).json()) as Array<{
      method: string;
      path: string;
    }>;
    assert.deepEqual(
      log.filter((r) => r.method === 'GET' && /^\/api\/v1\/ai_prompts\/\d+$/.test(r.path)),
      [],
      'no prompt was fetched to look for references',
    );
    await saveScreenshot(page, 'delete-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await service.get(prompts, target.id as number, TENANT)).name, 'Order Triage', 'nothing was deleted');
  });
});
