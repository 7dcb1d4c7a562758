// Try an edit before you save it, as a user meets it: a prompt's model changed in its editor and left unsaved, its
// suite run from the Testing view with testing.saveBeforeTest on (VS Code's default), and the result saying that the
// unsaved version ran as a trial, while the editor stays unsaved and the service's prompt is as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient, samplePromptId } from './service';
import {
  activeEditorHolds,
  choose,
  expandedTestRow,
  openConvAiView,
  runCommand,
  runSuiteToFailure,
  treeRow,
} from './tree-view';
import { workbench } from './workbench';

const SUITE = 'unsaved-trial.prompttest.json';
const PROMPT = 'Order Triage';
const EDITED = 'edited-model';

describe('a suite run on an unsaved edit, from the Testing view', () => {
  let client: ServiceClient;
  let id = 0;
  let saved = '';

  before(async () => {
    client = adminClient();
    id = await samplePromptId(client, 1, PROMPT);
    saved = String((await client.get(kindById('prompt'), id, 1)).ai_model);
    const asked = { prompt_text: 'Where is my order?' };
    const cases = [
      { name: 'answers with the edited model', ...asked, expect: { response: { contains: `(${EDITED})` } } },
      { name: 'answers with the saved model', ...asked, expect: { response: { contains: `(${saved})` } } },
    ];
    fs.writeFileSync(
      path.join(workbench().workspace, SUITE),
      `${JSON.stringify({ target: { connection: uiConnectionName, tenantId: 1 }, prompt: PROMPT, cases }, null, 2)}\n`,
    );
  });
  after(async () => {
    const { page, workspace } = workbench();
    await page.locator(`.tabs-container .tab[data-resource-name="${id}.json"]`).click();
    await runCommand(page, 'File: Revert File');
    await runCommand(page, 'View: Close All Editors');
    fs.rmSync(path.join(workspace, SUITE), { force: true });
    await client.close();
  });

  it('runs the unsaved edit as a trial and says so, saving nothing', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, PROMPT);
    await activeEditorHolds(page, `[data-uri$="/${id}.json"]`);
    // The model typed over in the editor, as a user edits it (found, then typed over), and not saved.
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await editor.click();
    await page.keyboard.press('Control+f');
    const find = page.locator('.editor-group-container.active .find-widget.visible');
    await find.locator('textarea:focus, input:focus').waitFor();
    await page.keyboard.type(saved);
    await find.locator('.matchesCount', { hasText: /^1 of 1$/ }).waitFor();
    // Closed by its button, which gives the editor back the keyboard with the match selected.
    await find.locator('.codicon-widget-close').click();
    await find.waitFor({ state: 'detached' });
    // The text inside the quotes: typing a quote would add its pair.
    await page.keyboard.type(EDITED);
    await editor.getByText(EDITED).waitFor();
    const dirty = page.locator(`.tabs-container .tab.dirty[data-resource-name="${id}.json"]`);
    await dirty.waitFor();

    const explorer = await runSuiteToFailure(page, SUITE);
    const passed = explorer.locator('.monaco-list-row', { hasText: 'answers with the edited model' });
    await passed.locator('.codicon-testing-passed-icon').waitFor();
    const failed = explorer.locator('.monaco-list-row', { hasText: 'answers with the saved model' });
    await expandedTestRow(explorer.locator('.monaco-list-row', { hasText: SUITE }));
    await failed.dblclick();
    await page
      .locator('.test-output-peek', { hasText: 'Ran your unsaved version as a trial; nothing was saved' })
      .waitFor();
    await saveScreenshot(page, 'trial-unsaved');

    await dirty.waitFor();
    assert.equal((await client.get(kindById('prompt'), id, 1)).ai_model, saved, 'the live prompt is as it was');
  });
});
