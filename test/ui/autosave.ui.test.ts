// Typing with auto-save on, as code-server's users do by default: no error on any keystroke, nothing invalid sent,
// the edits kept as a draft marked "Not uploaded", and Ctrl+S uploading them.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { adminClient } from './service';
import { uiConnectionName } from '../harness/ui-workbench';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

// Its own prompt, in the tenant the tree's pictures do not show, so that other tests find the samples as they were.
const TENANT = 2;
const PROMPT = 'Autosave Probe';
const prompts = kindById('prompt');

interface LoggedRequest {
  method: string;
  path: string;
}

async function putsTo(id: number): Promise<number> {
  const response = await fetch(`${workbench().service.url}/__test/requests`);
  const requests = (await response.json()) as LoggedRequest[];
  return requests.filter((r) => r.method === 'PUT' && r.path === `/api/v1/ai_prompts/${id}`).length;
}

function draftStatus(page: Page): ReturnType<Page['locator']> {
  return page.locator('.statusbar-item', { hasText: 'Not uploaded' });
}

function activeTab(page: Page, name: string): ReturnType<Page['locator']> {
  return page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`);
}

async function noNotifications(page: Page): Promise<void> {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  assert.equal(await toasts.count(), 0, `a notification appeared: ${(await toasts.allInnerTexts()).join(' | ')}`);
}

describe('typing with auto-save on', () => {
  let service: ServiceClient;
  let id = 0;
  let system = '';

  before(async () => {
    service = adminClient();
    system = 'Answer in one sentence.';
    id = (await service.create(prompts, { name: PROMPT, system }, TENANT)).id as number;
    // The connection exists once the view lists it (it is added at start-up); Refresh lists the new prompt.
    await treeRow(await openConvAiView(workbench().page), uiConnectionName, 1).waitFor();
    await runCommand(workbench().page, 'ConvAI: Refresh');
    await fetch(`${workbench().service.url}/__test/requests`, { method: 'DELETE' });
    // What code-server's web default is: afterDelay, 1 s.
    await runCommand(workbench().page, 'File: Toggle Auto Save');
  });
  after(async () => {
    await runCommand(workbench().page, 'File: Toggle Auto Save');
    await runCommand(workbench().page, 'View: Close All Editors');
    await service.delete(prompts, id, TENANT);
    await runCommand(workbench().page, 'ConvAI: Refresh');
    await service.close();
  });

  it("keeps a prompt document's edit as a draft, with no error and nothing sent", async () => {
    const { page } = workbench();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, PROMPT);
    await activeTab(page, `${id}.json`).waitFor();
    // A double click near its end selects the string's last word.
    const name = page.locator('.editor-group-container.active .view-lines span', { hasText: /^"Autosave\sProbe"$/ });
    const box = await name.boundingBox();
    await name.dblclick({ position: { x: (box?.width ?? 0) - 12, y: (box?.height ?? 0) / 2 } });
    await page.keyboard.type('Probe (draft)');
    await draftStatus(page).waitFor();
    assert.match(await draftStatus(page).innerText(), /Not uploaded · Ctrl\+S saves to local/);
    await noNotifications(page);
    assert.equal(await putsTo(id), 0);
    assert.equal((await service.get(prompts, id, TENANT)).name, PROMPT);
  });

  it('never sends invalid JSON, and keeps it', async () => {
    const { page } = workbench();
    await page.keyboard.press('End');
    await page.keyboard.type(' oops');
    await draftStatus(page).and(page.locator('[aria-label*="not valid JSON"]')).waitFor();
    await noNotifications(page);
    assert.equal(await putsTo(id), 0);
    await page.locator('.editor-group-container.active .view-lines', { hasText: /\(draft\)",\soops/ }).waitFor();
    for (let i = 0; i < ' oops'.length; i++) await page.keyboard.press('Backspace');
    await draftStatus(page).and(page.locator('[aria-label*="not valid JSON"]')).waitFor({ state: 'detached' });
  });

  it("keeps a part's edit as a draft too", async () => {
    const { page } = workbench();
    await runCommand(page, 'ConvAI: Open Prompt Part…');
    await choose(page, 'system');
    await activeTab(page, 'system.md').waitFor();
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\nKeep answers short.');
    await draftStatus(page).waitFor();
    await noNotifications(page);
    assert.equal(await putsTo(id), 0);
    await saveScreenshot(page, 'autosave-draft', { readme: true });
  });

  it('uploads a draft with Ctrl+S', async () => {
    const { page } = workbench();
    // The whole document first: it sends every field, so it goes before the part changes one on the service.
    await page.locator(`.tabs-container .tab[data-resource-name="${id}.json"]`).click();
    await draftStatus(page).waitFor();
    await page.keyboard.press('Control+s');
    await draftStatus(page).waitFor({ state: 'detached' });
    assert.equal((await service.get(prompts, id, TENANT)).name, 'Autosave Probe (draft)');
    await page.locator('.tabs-container .tab[data-resource-name="system.md"]').click();
    await draftStatus(page).waitFor();
    await page.keyboard.press('Control+s');
    await draftStatus(page).waitFor({ state: 'detached' });
    assert.equal((await service.get(prompts, id, TENANT)).system, `${system}\n\nKeep answers short.`);
    await noNotifications(page);
  });
});
