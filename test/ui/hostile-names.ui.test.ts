// Names and service texts that a tenant's user (or the service) chose, where a person meets them in VS Code: a
// Markdown link `[open](command:…)` in a notification would run a command with one click; `$(zap)` in the status
// bar or a quick pick would draw an icon; a right-to-left override in a dialog would reverse what follows it. Each
// route shows them as text: no link in the notification, a click where the link was runs nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { request } from 'undici';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { slug } from '../../src/core/tenant/resource-paths';
import { uiConnectionName } from '../harness/ui-workbench';
import { notification } from './notifications';
import { adminClient } from './service';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

/** A command whose effect shows: a new untitled editor. */
const LINK = '[open](command:workbench.action.files.newUntitledFile)';
const RLO = '\u202E';
const TENANT_NAME = `Hostile ${LINK} ${RLO}gnp.exe`;
const REPEATED = `Refunds ${LINK}`;
/** Read left to right it ends "lmth.exe"; reversed by the override, "exe.html". */
const ICONS = `$(alert) $(zap) $(check) Approved ${RLO}lmth.exe`;
const prompts = kindById('prompt');

async function queueFault(fault: Record<string, unknown>): Promise<void> {
  const answer = await request(`${workbench().service.url}/__test/faults`, {
    method: 'POST',
    body: JSON.stringify({ queue: [fault] }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(answer.statusCode, 200, await answer.body.text());
}

function untitledTabs(page: Page): Promise<number> {
  return page.locator('.tabs-container .tab', { hasText: /^Untitled-\d/ }).count();
}

/**
 * Clicks where the link would be in each notification (the link itself, if one was made) and checks that no command
 * ran: once the notifications are cleared through the palette, which comes after any command a click ran, no new
 * untitled editor is there. Then that no message holds a link at all.
 */
async function clicksRunNothing(page: Page, notes: ReadonlyArray<[Locator, string]>): Promise<void> {
  const before = await untitledTabs(page);
  const links: string[] = [];
  for (const [note, what] of notes) {
    const message = note.locator('.notification-list-item-message');
    const link = message.locator('a');
    if ((await link.count()) > 0) links.push(what);
    await ((await link.count()) > 0 ? link.first() : message.getByText('[open]', { exact: false }).first()).click();
  }
  await runCommand(page, 'Notifications: Clear All Notifications');
  for (const [note] of notes) await note.waitFor({ state: 'detached' });
  assert.equal(
    await untitledTabs(page),
    before,
    `a click on ${notes.map(([, what]) => what).join(' or ')} ran the link's command`,
  );
  assert.deepEqual(links, [], 'these notifications show a link');
}

const ICON_CLASSES = '.codicon-alert, .codicon-zap, .codicon-check';

describe('names and service texts shown as text', () => {
  let service: ServiceClient;
  let tenantId = 0;
  let iconsId = 0;
  let folder = '';
  /** Delete Resource… on the prompt of icons, up to its confirmation. */
  const askToDelete = async (page: Page): Promise<Locator> => {
    await documentTab(page).click();
    await runCommand(page, 'ConvAI: Delete Resource…');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    return dialog;
  };
  /** The prompt of icons' own tab. */
  const documentTab = (page: Page): Locator =>
    page.locator(`.tabs-container .tab[data-resource-name="${iconsId}.json"]`);

  before(async () => {
    service = adminClient();
    tenantId = (
      await service.create(kindById('tenant'), { name: TENANT_NAME, email: 'ops@hostile.example', package: 'voice' })
    ).id as number;
    for (const name of [REPEATED, REPEATED])
      await service.create(prompts, { name, system: 'You help.', settings: '{}', function_defs: '[]' }, tenantId);
    iconsId = (
      await service.create(
        prompts,
        { name: ICONS, description: 'original', system: 'You help.', settings: '{}', function_defs: '[]' },
        tenantId,
      )
    ).id as number;
    folder = path.join(workbench().workspace, slug(TENANT_NAME));
  });
  after(async () => {
    await request(`${workbench().service.url}/__test/faults`, { method: 'DELETE' }).then((answer) =>
      answer.body.text(),
    );
    await service.delete(kindById('tenant'), tenantId);
    await service.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a pull names the tenant and the repeated names as text: no link runs', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Refresh');
    await runCommand(page, 'ConvAI: Pull Tenant to Folder…');
    await choose(page, uiConnectionName);
    await choose(page, 'Hostile');
    await choose(page, slug(TENANT_NAME), 'a folder of the workspace for this tenant');
    const repeated = await notification(page, /Pulled, but names repeat/);
    const said = await repeated.innerText();
    const pulled = await notification(page, /Pulled \d+ resources of Hostile/);
    const named = await pulled.innerText();
    await clicksRunNothing(page, [
      [repeated, 'the "names repeat" warning'],
      [pulled, "the pull's notification"],
    ]);
    assert.ok(
      named.includes('of Hostile [open]\\(command:workbench.action.files.newUntitledFile) \\u202Egnp.exe into') &&
        !named.includes(RLO),
      named,
    );
    assert.ok(said.includes(`"Refunds [open]\\(command:workbench.action.files.newUntitledFile)"`), said);
  });

  it('Go to Resource lists a name of codicons as text, and opens it', async () => {
    const { page } = workbench();
    await runCommand(page, 'ConvAI: Go to Resource…');
    const input = page.locator('.quick-input-widget input[placeholder="Go to a resource by name"]');
    await input.waitFor();
    await input.fill('Approved');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Approved' }).first();
    await row.waitFor();
    const listed = await row.innerText();
    const icons = await row.locator(ICON_CLASSES).count();
    // Opened first, for the tests after this one, whatever the row showed: the row the list focuses, with Enter.
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Approved' }).waitFor();
    await input.press('Enter');
    await documentTab(page).waitFor();
    assert.ok(listed.includes('$(alert) $(zap) $(check) Approved \\u202Elmth.exe') && !listed.includes(RLO), listed);
    assert.equal(icons, 0, 'the name drew icons');
  });

  it("a save refused with a 422 quotes the service's text as text: no link runs", async () => {
    const { page } = workbench();
    await documentTab(page).click();
    await page.locator('.editor-group-container.active .view-lines span', { hasText: /^"original"$/ }).dblclick();
    await page.keyboard.type('mine');
    await queueFault({
      match: `PUT /api/v1/ai_prompts/${iconsId}`,
      status: 422,
      body: JSON.stringify({ errors: { description: [`is refused, ${LINK}`] } }),
    });
    await page.keyboard.press('Control+s');
    await clicksRunNothing(page, [[await notification(page, /Failed to save/), 'the "Failed to save" notification']]);
  });

  it('a save names the resource as text in the status bar: no icon, no override', async () => {
    const { page } = workbench();
    await documentTab(page).click();
    await page.keyboard.press('Control+s');
    const saved = page.locator('.statusbar-item', { hasText: 'Saved' });
    await saved.waitFor();
    const text = await saved.innerText();
    assert.ok(text.includes('$(alert) $(zap) $(check) Approved \\u202Elmth.exe') && !text.includes(RLO), text);
    assert.equal(await saved.locator(ICON_CLASSES).count(), 0, 'the name drew icons in the status bar');
  });

  it('the delete confirmation shows the name inert: no icon, no override', async () => {
    const { page } = workbench();
    const dialog = await askToDelete(page);
    const text = await dialog.innerText();
    // A dialog draws no icons: the escape that keeps `$(` from being one in the status bar shows here as written.
    assert.ok(
      text.includes('Delete "\\$(alert) \\$(zap) \\$(check) Approved \\u202Elmth.exe"') && !text.includes(RLO),
      text,
    );
    assert.equal(await dialog.locator(ICON_CLASSES).count(), 0, 'the name drew icons in the dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("the service's answer to a delete is shown as text: no link runs", async () => {
    const { page } = workbench();
    const dialog = await askToDelete(page);
    // The service's status text is its own: here one holding a link (the resource stays; the tenant goes after).
    await queueFault({
      match: `DELETE /api/v1/ai_prompts/${iconsId}`,
      status: 200,
      body: JSON.stringify({ status: `Deleted. ${LINK}` }),
    });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await clicksRunNothing(page, [[await notification(page, /Deleted\./), "the delete's status notification"]]);
  });
});
