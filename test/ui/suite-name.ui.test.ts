// New Prompt Test Suite through code-server's own save dialog, accepting the name it proposes: the file gets that
// name, not the suffix twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiConnectionName } from '../harness/ui-workbench';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const PROPOSED = 'weekly-ticket-summary.prompttest.json';

describe('New Prompt Test Suite', () => {
  after(async () => {
    fs.rmSync(path.join(workbench().workspace, PROPOSED), { force: true });
    await runCommand(workbench().page, 'View: Close All Editors');
  });

  it('writes the file under the name its dialog proposes', async () => {
    const { page, workspace } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, 'Weekly Ticket Summary');
    // Its text, not its tab: the palette lists the prompt's commands once the editor holds the document.
    await page.locator('.editor-group-container.active .view-lines', { hasText: 'Weekly Ticket Summary' }).waitFor();
    await runCommand(page, 'ConvAI: New Prompt Test Suite');
    // code-server's save dialog is a quick input holding the proposed path.
    const input = page.locator('.quick-input-widget input');
    await page.waitForFunction((name) => {
      const field = (
        globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }
      ).document.querySelector('.quick-input-widget input');
      return field?.value.endsWith(name) ?? false;
    }, PROPOSED);
    await input.press('Enter');
    await page.locator(`.tabs-container .tab.active[data-resource-name="${PROPOSED}"]`).waitFor();
    assert.deepEqual(
      fs.readdirSync(workspace).filter((file) => file.includes('weekly-ticket-summary')),
      [PROPOSED],
    );
  });
});
