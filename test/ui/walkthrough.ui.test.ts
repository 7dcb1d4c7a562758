// The Get Started walkthrough as a new user meets it: opened from the Welcome page, each step's button doing what
// the step says, and the step ticked off when its completion event comes.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { answerTestPrompt, resultsPanel } from './results-panel';
import { choose, openConvAiView, runCommand, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';

const TITLE = 'Get Started with ConvAI Config';
const STEPS = ['Add a connection', 'Browse the ConvAI view', 'Edit and save a prompt', 'Test the prompt'];
const PROMPT = 'Support Greeting';
const QUESTION = 'Is order A-1042 on its way?';

/** A step of the walkthrough, by its title. */
function step(page: Page, title: string): Locator {
  return page.locator('.getting-started-step').filter({ has: page.locator('.step-title', { hasText: title }) });
}

/** Expands the step (one shows its buttons at a time) and clicks its button. */
async function clickStepButton(page: Page, title: string, button: string): Promise<void> {
  await step(page, title).locator('.step-title').click();
  await step(page, title).locator('.button-container .monaco-button', { hasText: button }).click();
}

/** Resolves once VS Code ticks the step off. */
async function ticked(page: Page, title: string): Promise<void> {
  await step(page, title).and(page.locator('[aria-checked="true"]')).waitFor();
}

describe('the Get Started walkthrough', () => {
  it('opens from the Welcome page with its steps', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    // Room for the steps' editors beside the walkthrough: VS Code opens them there only in a group wider than 700 px.
    await setSideBarWidth(page, 300);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Help: Welcome');
    // A new profile's first Welcome page shows VS Code's own first walkthrough; its back link leads to the list.
    await page.locator('.prev-button', { hasText: 'Welcome' }).click();
    await page.locator('.getting-started-category', { hasText: TITLE }).click();

    const details = page.locator('.gettingStartedSlideDetails');
    await details.locator('h2.category-title', { hasText: TITLE }).waitFor();
    assert.deepEqual(await details.locator('.step-title').allInnerTexts(), STEPS);
    // Where to find a service without one at hand, in words: the product links to no web page.
    await step(page, STEPS[0] as string).getByText(/npm start`? runs the local service with sample data/).waitFor();
    assert.equal(await step(page, STEPS[0] as string).locator('a[href^="http"]').count(), 0);
    // The first step's Markdown, in a webview of the workbench's.
    const media = page.frameLocator('.getting-started-media iframe.webview.ready').frameLocator('iframe#active-frame');
    await media.getByText('asks for:').waitFor();
    await saveScreenshot(page, 'walkthrough');
  });

  it('Add Connection asks for the new connection\'s name', async () => {
    const { page } = workbench();
    await clickStepButton(page, 'Add a connection', 'Add Connection');
    const input = page.locator('.quick-input-widget');
    await input.getByText('Add ConvAI Connection').waitFor();
    await page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden' });
  });

  it('Show the ConvAI View brings the tree into view and focus', async () => {
    const { page } = workbench();
    // Another view in the side bar first, so that showing the tree is the button's doing.
    await page.locator('.activitybar .action-label[aria-label^="Explorer"]').click();
    const tree = page.locator('.monaco-list[role="tree"][aria-label="Resources"]');
    await tree.waitFor({ state: 'hidden' });
    await clickStepButton(page, 'Browse the ConvAI view', 'Show the ConvAI View');
    await treeRow(tree, uiConnectionName, 1).waitFor();
    await page.waitForFunction(`document.activeElement?.closest('.monaco-list[aria-label="Resources"]')`);
    await ticked(page, 'Browse the ConvAI view');
  });

  it('Go to Resource opens the chosen prompt beside the walkthrough', async () => {
    const { page } = workbench();
    await clickStepButton(page, 'Edit and save a prompt', 'Go to Resource');
    await choose(page, PROMPT);
    await page.locator('.editor-group-container.active .tab.active', { hasText: '.json' }).waitFor();
    await page.locator('.editor-group-container.active .view-lines', { hasText: PROMPT }).waitFor();
    await page.locator('.editor-group-container:not(.active) .tab.active', { hasText: 'Walkthrough' }).waitFor();
    await ticked(page, 'Edit and save a prompt');
  });

  it('Test Prompt tests the open prompt and shows the answer', async () => {
    const { page } = workbench();
    await clickStepButton(page, 'Test the prompt', 'Test Prompt');
    await answerTestPrompt(page, QUESTION, 'customer_name', '{"customer_name": "Ada"}');
    await resultsPanel(page).locator('pre', { hasText: `Echo (gpt-4o): ${QUESTION}` }).first().waitFor();
    await ticked(page, 'Test the prompt');
    await runCommand(page, 'View: Close All Editors');
  });
});
