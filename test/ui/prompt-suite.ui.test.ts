// Step 4 of the README's tour, as a user follows it: the suite `npm start` writes run from VS Code's Testing view, its
// tour case's expected value changed as the README says, run again, and the failed case's expected and actual text
// side by side (the README's picture).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { request } from 'undici';
import * as path from 'node:path';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { SAMPLE_SUITE_FILE, sampleSuiteText, TOUR_CASE, TOUR_EDIT } from '../service/sample-suite';
import { openFile } from './open-file';
import { expandedTestRow, openTestingView, runCommand, runFromRow } from './tree-view';
import { workbench } from './workbench';

describe("the README tour's step 4: the sample suite in the Testing view", () => {
  before(() => {
    fs.writeFileSync(path.join(workbench().workspace, SAMPLE_SUITE_FILE), sampleSuiteText(uiConnectionName));
  });

  it('runs the sample suite from the Testing view, and both of its cases pass', async () => {
    const { page } = workbench();
    const explorer = await openTestingView(page);
    const suiteRow = explorer.locator('.monaco-list-row', { hasText: SAMPLE_SUITE_FILE });
    await runFromRow(suiteRow);
    await suiteRow.locator('.codicon-testing-passed-icon').waitFor({ timeout: 30_000 });
  });

  it("fails the tour case after the README's edit, its expected and actual text side by side", async () => {
    const { page } = workbench();
    await openFile(page, path.join(workbench().workspace, SAMPLE_SUITE_FILE));
    // The README's edit, made as a user makes it: into the editor (the Test Results panel may hold the keyboard after
    // the first run), find the text, then type over it.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+f');
    const find = page.locator('.editor-group-container.active .find-widget.visible');
    // Typed only once the find box has the keyboard, else the text lands in the suite.
    await find.locator('textarea:focus, input:focus').waitFor();
    await page.keyboard.type(TOUR_EDIT.from);
    await find.locator('.matchesCount', { hasText: /^1 of 1$/ }).waitFor();
    await page.keyboard.press('Escape');
    await find.waitFor({ state: 'detached' });
    await page.keyboard.type(TOUR_EDIT.to);
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await editor.getByText(TOUR_EDIT.to).waitFor();
    await page.keyboard.press('Control+s');
    await page
      .locator(`.tabs-container .tab.dirty[data-resource-name="${SAMPLE_SUITE_FILE}"]`)
      .waitFor({ state: 'detached' });
    const explorer = page.locator('.test-explorer');
    const suiteRow = explorer.locator('.monaco-list-row', { hasText: SAMPLE_SUITE_FILE });
    await runFromRow(suiteRow);
    await suiteRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: 30_000 });
    await expandedTestRow(suiteRow);
    const failed = explorer.locator('.monaco-list-row', { hasText: TOUR_CASE });
    await failed.locator('.codicon-testing-failed-icon').waitFor();
    await failed.dblclick();
    // Under the case in the editor: the message and a diff, the expected text on the left, the actual on the right.
    const diff = page.locator('.test-output-peek .monaco-diff-editor.side-by-side');
    await diff.locator('.editor.original .view-lines', { hasText: TOUR_EDIT.to }).waitFor();
    await diff.locator('.editor.modified .view-lines', { hasText: TOUR_EDIT.from }).waitFor();
    await saveScreenshot(page, 'prompt-suite', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });

  it('cancels a slow run from the Testing view, the cases not yet run skipped', async () => {
    const { page, service } = workbench();
    const cases = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'].map((name) => ({
      name,
      prompt_text: name,
      expect: { response: { contains: name } },
    }));
    fs.writeFileSync(
      path.join(workbench().workspace, 'slow.prompttest.json'),
      `${JSON.stringify({ target: { connection: uiConnectionName, tenantId: 1 }, prompt: 'Order Triage', cases }, null, 2)}\n`,
    );
    const latency = async (latencyMs: number): Promise<void> => {
      const answer = await request(`${service.url}/__test/faults`, {
        method: latencyMs > 0 ? 'POST' : 'DELETE',
        body: latencyMs > 0 ? JSON.stringify({ latencyMs }) : undefined,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(answer.statusCode, 200, await answer.body.text());
    };
    const explorer = page.locator('.test-explorer');
    const suiteRow = explorer.locator('.monaco-list-row', { hasText: 'slow.prompttest.json' });
    await suiteRow.waitFor();
    await latency(3000);
    try {
      await runFromRow(suiteRow);
      // Four requests at once (convai.testConcurrency): the last two cases wait, and are never sent.
      await suiteRow
        .locator('.codicon-testing-loading-icon, .codicon-loading, [class*="testing-loading"]')
        .first()
        .waitFor();
      // Cancel Test Run's keybinding (the view's Cancel button shows only under the pointer).
      await page.keyboard.press('Control+Semicolon');
      await page.keyboard.press('Control+KeyX');
      await suiteRow.locator('.codicon-testing-skipped-icon').waitFor({ timeout: 30_000 });
      await expandedTestRow(suiteRow);
      for (const name of ['fifth', 'sixth'])
        await explorer
          .locator('.monaco-list-row', { hasText: name })
          .locator('.codicon-testing-skipped-icon')
          .waitFor();
    } finally {
      await latency(0);
    }
  });
});
