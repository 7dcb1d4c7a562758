// A prompt test suite run from VS Code's Testing view, as a user does it: the suite's cases listed, a run, and the
// failed case's expected and actual answers as a diff.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { request } from 'undici';
import * as path from 'node:path';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { runCommand } from './tree-view';
import { workbench } from './workbench';

describe('a prompt test suite in the Testing view', () => {
  before(() => {
    const suite = {
      target: { connection: uiConnectionName, tenantId: 1 },
      prompt: 'Order Triage',
      cases: [
        { name: 'echoes the question', prompt_text: 'Where is order A-1?', expect: { response: { contains: 'A-1' } } },
        { name: 'answers in one word', prompt_text: 'Where is order A-1?', expect: { response: { equals: 'status' } } },
      ],
    };
    fs.writeFileSync(path.join(workbench().workspace, 'triage.prompttest.json'), `${JSON.stringify(suite, null, 2)}\n`);
  });

  it('lists the suite\'s cases and runs them', async () => {
    const { page } = workbench();
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const explorer = page.locator('.test-explorer');
    await explorer.getByText('triage.prompttest.json').waitFor();
    await runCommand(page, 'Test: Run All Tests');
    const suiteRow = explorer.locator('.monaco-list-row', { hasText: 'triage.prompttest.json' });
    await suiteRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: 30_000 });
    if ((await suiteRow.getAttribute('aria-expanded')) === 'false') await suiteRow.locator('.monaco-tl-twistie').click();
    await explorer.locator('.monaco-list-row', { hasText: 'answers in one word' }).locator('.codicon-testing-failed-icon').waitFor({ timeout: 30_000 });
    await explorer.locator('.monaco-list-row', { hasText: 'echoes the question' }).locator('.codicon-testing-passed-icon').waitFor();
  });

  it('shows the failed case\'s expected and actual answers as a diff', async () => {
    const { page } = workbench();
    await page.locator('.test-explorer .monaco-list-row', { hasText: 'answers in one word' }).dblclick();
    await page.locator('.test-output-peek, .peekview-widget').first().waitFor();
    await saveScreenshot(page, 'prompt-suite', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });

  it('cancels a slow run from the Testing view, the cases not yet run skipped', async () => {
    const { page, service } = workbench();
    const cases = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'].map((name) => ({ name, prompt_text: name, expect: { response: { contains: name } } }));
    fs.writeFileSync(path.join(workbench().workspace, 'slow.prompttest.json'), `${JSON.stringify({ target: { connection: uiConnectionName, tenantId: 1 }, prompt: 'Order Triage', cases }, null, 2)}\n`);
    const latency = async (latencyMs: number): Promise<void> => {
      const answer = await request(`${service.url}/__test/faults`, { method: latencyMs > 0 ? 'POST' : 'DELETE', body: latencyMs > 0 ? JSON.stringify({ latencyMs }) : undefined, headers: { 'content-type': 'application/json' } });
      assert.equal(answer.statusCode, 200, await answer.body.text());
    };
    const explorer = page.locator('.test-explorer');
    const suiteRow = explorer.locator('.monaco-list-row', { hasText: 'slow.prompttest.json' });
    await suiteRow.waitFor();
    await latency(3000);
    try {
      await suiteRow.hover();
      await suiteRow.locator('.action-label[aria-label^="Run Test"]').click();
      // Four requests at once (convai.testConcurrency): the last two cases wait, and are never sent.
      await suiteRow.locator('.codicon-testing-loading-icon, .codicon-loading, [class*="testing-loading"]').first().waitFor();
      // Cancel Test Run's keybinding (the view's Cancel button shows only under the pointer).
      await page.keyboard.press('Control+Semicolon');
      await page.keyboard.press('Control+KeyX');
      await suiteRow.locator('.codicon-testing-skipped-icon').waitFor({ timeout: 30_000 });
      if ((await suiteRow.getAttribute('aria-expanded')) === 'false') await suiteRow.locator('.monaco-tl-twistie').click();
      for (const name of ['fifth', 'sixth']) await explorer.locator('.monaco-list-row', { hasText: name }).locator('.codicon-testing-skipped-icon').waitFor();
    } finally {
      await latency(0);
    }
  });
});
