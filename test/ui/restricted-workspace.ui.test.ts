// A cloned repository opened in Restricted Mode whose .vscode/settings.json turns on auto-save and
// convai.uploadOnAutoSave: the workspace may not choose a setting that writes to the service, so typing in a prompt
// keeps a draft and sends nothing. Its own workbench, as the shared one has workspace trust off.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { startUiWorkbench, uiConnectionName, UiWorkbench } from '../harness/ui-workbench';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';

const TENANT = 2;
const PROMPT = 'Restricted Probe';
const prompts = kindById('prompt');

describe('a workspace in Restricted Mode', () => {
  let restricted: UiWorkbench | undefined;
  let service: ServiceClient | undefined;

  before(async function () {
    this.timeout(120_000);
    restricted = await startUiWorkbench(process.env.CONVAI_CODE_SERVER, {
      restrictedWorkspaceSettings: {
        'files.autoSave': 'afterDelay',
        'files.autoSaveDelay': 1500,
        'convai.uploadOnAutoSave': true,
      },
    });
    const { service: local } = restricted;
    service = new ServiceClient({ baseUrl: local.url, token: () => local.adminToken });
  });
  after(async () => {
    await service?.close();
    await restricted?.close();
  });

  it('sends no PUT when its settings turn on auto-save and uploadOnAutoSave', async function () {
    this.timeout(60_000);
    assert.ok(restricted && service);
    const { page, service: local } = restricted;
    const id = (await service.create(prompts, { name: PROMPT, system: 'Answer briefly.' }, TENANT)).id as number;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await fetch(`${local.url}/__test/requests`, { method: 'DELETE' });

    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, PROMPT);
    const tab = page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`);
    await tab.waitFor();
    await page.locator('.editor-group-container.active .view-lines span', { hasText: /^"Restricted\sProbe"$/ }).click();
    await page.keyboard.type(' typed');
    // The tab shows the edit as unsaved until auto-save has run (with a delay over a second: VS Code hides it below).
    await tab.and(page.locator('.dirty')).waitFor();
    await tab.and(page.locator('.dirty')).waitFor({ state: 'detached' });

    const requests = (await (await fetch(`${local.url}/__test/requests`)).json()) as { method: string; path: string }[];
    assert.deepEqual(
      requests.filter((r) => r.method === 'PUT'),
      [],
      'typing sent a PUT in Restricted Mode',
    );
    await page.locator('.statusbar-item', { hasText: 'Not uploaded' }).waitFor();
    assert.equal((await service.get(prompts, id, TENANT)).name, PROMPT);
  });
});
