// A save that meets a change made on the service meanwhile, as a user goes through it: the modal choice,
// Compare (a diff of theirs and mine, nothing sent), then Overwrite.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { goToResource, runCommand } from './tree-view';
import { workbench } from './workbench';

const TENANT = 2;
const functions = kindById('function');

/** The document's own tab (the diff editor's tab names the same file). */
function documentTab(page: Page, id: number): ReturnType<Page['locator']> {
  return page.locator(`.tabs-container .tab[data-resource-name="${id}.json"]:not([aria-label*="↔"])`);
}

function dialog(page: Page): ReturnType<Page['locator']> {
  return page.locator('.monaco-dialog-box');
}

describe('a save that meets a change made on the service', () => {
  let service: ServiceClient;
  let id = 0;

  before(async () => {
    const { service: running } = workbench();
    service = new ServiceClient({ baseUrl: running.url, token: () => running.adminToken });
    id = (await service.create(functions, { name: 'conflict_probe', description: 'original' }, TENANT)).id as number;
  });
  after(async () => {
    await service.close();
  });

  it('opens the resource through Go to Resource', async () => {
    await goToResource(workbench().page, uiConnectionName, 'conflict_probe', id);
  });

  it('asks what to do when the service changed since the document was opened', async () => {
    const { page } = workbench();
    const word = page.locator('.editor-group-container.active .view-lines span', { hasText: /^"original"$/ });
    await word.dblclick();
    await page.keyboard.type('mine');
    await service.update(functions, id, { description: 'theirs' }, TENANT);
    await page.keyboard.press('Control+s');
    await dialog(page).waitFor();
    assert.match(await dialog(page).innerText(), /changed on the service since you opened it/);
    await saveScreenshot(page, 'save-conflict');
  });

  it('Compare shows theirs beside mine and sends nothing', async () => {
    const { page } = workbench();
    await dialog(page).getByRole('button', { name: 'Compare' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'service ↔ yours' }).waitFor();
    // The refused save leaves my text unsaved.
    await documentTab(page, id).and(page.locator('.dirty')).waitFor();
    assert.equal((await service.get(functions, id, TENANT)).description, 'theirs');
  });

  it('Overwrite puts mine on the service', async () => {
    const { page } = workbench();
    await documentTab(page, id).click();
    await page.keyboard.press('Control+s');
    await dialog(page).getByRole('button', { name: 'Overwrite' }).click();
    await documentTab(page, id).and(page.locator('.dirty')).waitFor({ state: 'detached' });
    assert.match(String((await service.get(functions, id, TENANT)).description), /mine/);
    await runCommand(page, 'View: Close All Editors');
  });
});
