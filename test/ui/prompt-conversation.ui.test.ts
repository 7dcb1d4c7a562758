// A conversation case in VS Code's Testing view, as a user sees it: its turns listed under it, each with its own
// result, and the failing turn's message naming the prompt that answered and the one expected. The sample tenant's
// Support Greeting hands over to Order Triage, which hands over to Order Resolution.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { expandedTestRow, runCommand, runSuiteToFailure } from './tree-view';
import { workbench } from './workbench';

const FILE = 'conversation.prompttest.json';

describe('a conversation case in the Testing view', () => {
  const file = (): string => path.join(workbench().workspace, FILE);

  before(() => {
    const suite = {
      target: { connection: uiConnectionName, tenantId: 1 },
      prompt: 'Support Greeting',
      cases: [
        {
          name: 'order question goes to resolution',
          prompt_params: { customer_name: 'Ada' },
          turns: [
            { prompt_text: 'Hello', expect: { prompt: 'Support Greeting' } },
            { prompt_text: 'Where is order A-1?', expect: { prompt: 'Order Resolution' } },
            { prompt_text: 'Thanks' },
          ],
        },
      ],
    };
    fs.writeFileSync(file(), `${JSON.stringify(suite, null, 2)}\n`);
  });

  after(async () => {
    const { page } = workbench();
    fs.rmSync(file(), { force: true });
    await page.locator('.test-explorer .monaco-list-row', { hasText: FILE }).waitFor({ state: 'detached' });
  });

  it("shows each turn's result, the failing turn naming the prompts, the turns after it skipped", async () => {
    const { page } = workbench();
    const explorer = await runSuiteToFailure(page, FILE);
    await expandedTestRow(explorer.locator('.monaco-list-row', { hasText: 'order question goes to resolution' }));
    const turn = (label: string): Locator => explorer.locator('.monaco-list-row', { hasText: label });
    await turn('turn 1: "Hello"').locator('.codicon-testing-passed-icon').waitFor();
    await turn('turn 3: "Thanks"').locator('.codicon-testing-skipped-icon').waitFor();
    const failed = turn('turn 2: "Where is order A-1?"');
    await failed.locator('.codicon-testing-failed-icon').waitFor();
    await failed.dblclick();
    await page
      .locator('.test-output-peek, .peekview-widget')
      .getByText(/turn 2: answered by "Order Triage" \(\d+\), expected "Order Resolution"/)
      .first()
      .waitFor();
    await saveScreenshot(page, 'prompt-conversation', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });
});
