// The Get Started walkthrough as a new user meets it: opened from the Welcome page, each step's button doing what
// the step says, and each step ticked off once the user did what it asks, before the walkthrough opened or after.
// Earlier test files may have saved and tested prompts already: each step's tick is taken back, as a user can, before
// the test does what ticks it.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { answerTestPrompt, resultsPanel } from './results-panel';
import { adminClient, samplePromptId } from './service';
import { choose, goToResource, openConvAiView, runCommand, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';
import { answerNewConnection, removeConnection } from './connections';

const TITLE = 'Get Started with ConvAI Config';
const STEPS = ['Add a connection', 'Browse the ConvAI view', 'Edit and save a prompt', 'Test the prompt'];
const PROMPT = 'Support Greeting';
const QUESTION = 'Is order A-1042 on its way?';
const TENANT = 1;
/** The sample prompt's description, which the test saves with a full stop and then without it. */
const DESCRIPTION = 'Opens every chat and collects the order number';
/** The connection the first step adds and removes. */
const PROBE = 'walkthrough-probe';

/** A step of the walkthrough, by its title. */
function step(page: Page, title: string): Locator {
  return page.locator('.getting-started-step').filter({ has: page.locator('.step-title', { hasText: title }) });
}

/** Expands the step (one shows its buttons at a time) and clicks its button. */
async function clickStepButton(page: Page, title: string, button: string): Promise<void> {
  await step(page, title).locator('.step-title').click();
  await step(page, title).locator('.button-container .monaco-button', { hasText: button }).click();
}

/** Resolves once VS Code shows the step ticked off. */
async function ticked(page: Page, title: string): Promise<void> {
  await step(page, title).and(page.locator('[aria-checked="true"]')).waitFor();
}

/** Takes the step's tick back with its check mark, as a user can, so that the test sees the next tick come. */
async function untick(page: Page, title: string): Promise<void> {
  const mark = step(page, title).locator('[data-done-step-id]');
  if ((await mark.getAttribute('aria-checked')) === 'true') await mark.click();
  await step(page, title).and(page.locator('[aria-checked="false"]')).waitFor();
}

/** Answers the input box whose prompt holds `prompt` (each box replaces the one before: wait for its prompt). */
/**
 * In the active editor, the prompt's JSON: goes to the end of `text` (found once), presses `keys` there and saves with
 * Ctrl+S; resolves once the tab is clean again.
 */
async function editAfter(page: Page, text: string, keys: string): Promise<void> {
  const editor = page.locator('.editor-group-container.active');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+f');
  await editor.locator('.find-widget textarea[aria-label="Find"]').fill(text);
  // Attached: a narrow editor's find widget hides its count.
  await editor.locator('.find-widget .matchesCount', { hasText: /^1 of 1$/ }).waitFor({ state: 'attached' });
  // Closed by its button, which hands the focus back to the editor with the match selected; the arrow key goes to its end.
  await editor.locator('.find-widget .codicon-widget-close').click();
  await editor.locator('.find-widget.visible').waitFor({ state: 'detached' });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(keys);
  await editor.locator('.tab.active.dirty').waitFor();
  await page.keyboard.press('Control+s');
  await editor.locator('.tab.active.dirty').waitFor({ state: 'detached' });
}

describe('the Get Started walkthrough', () => {
  let service: ServiceClient;
  let promptId = 0;
  before(async () => {
    service = adminClient();
    promptId = await samplePromptId(service, TENANT, PROMPT);
  });
  after(async () => {
    // The sample's description back, for whatever runs after, even when a test stopped between the two saves.
    await service.update(kindById('prompt'), promptId, { description: DESCRIPTION }, TENANT);
    await service.close();
  });

  it('opens from the Welcome page with its steps, what was done before ticked off', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    // Room for the steps' editors beside the walkthrough: VS Code opens them there only in a group wider than 700 px.
    await setSideBarWidth(page, 300);
    // One editor group, whatever the files before left open.
    await runCommand(page, 'View: Close All Editors');
    // Done before the walkthrough opens: the connection `local` exists from the start, and a prompt is saved here.
    await goToResource(page, uiConnectionName, PROMPT, promptId);
    await editAfter(page, DESCRIPTION, '.');
    assert.equal(
      (await service.get(kindById('prompt'), promptId, TENANT)).description,
      `${DESCRIPTION}.`,
      'the service holds the edit',
    );
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Help: Welcome');
    // The list of walkthroughs, or VS Code's own first one (when the page starts its walkthroughs, the first time in a
    // new profile), whose back link leads to the list.
    const entry = page.locator('.getting-started-category', { hasText: TITLE });
    const back = page.locator('.prev-button', { hasText: 'Welcome' });
    await entry.or(back).filter({ visible: true }).first().waitFor();
    if (await back.isVisible()) await back.click();
    await entry.click();

    const details = page.locator('.gettingStartedSlideDetails');
    await details.locator('h2.category-title', { hasText: TITLE }).waitFor();
    assert.deepEqual(await details.locator('.step-title').allInnerTexts(), STEPS);
    await ticked(page, 'Add a connection');
    await ticked(page, 'Edit and save a prompt');
    // It opens on the first step not done: the first one shows its text when chosen.
    await step(page, STEPS[0] as string)
      .locator('.step-title')
      .click();
    // Where to find a service without one at hand, in words: the product links to no web page.
    await step(page, STEPS[0] as string)
      .getByText(/npm start`? runs the local service with sample data/)
      .waitFor();
    assert.equal(
      await step(page, STEPS[0] as string)
        .locator('a[href^="http"]')
        .count(),
      0,
    );
    // The first step's Markdown, in a webview of the workbench's.
    const media = page.frameLocator('.getting-started-media iframe.webview.ready').frameLocator('iframe#active-frame');
    const shown = media.getByText('asks for:');
    for (
      let look = 0;
      !(await shown.waitFor({ timeout: 8_000 }).then(
        () => true,
        () => false,
      ));
      look++
    ) {
      if (look === 3) throw new Error("the first step's Markdown did not show beside the steps");
      // Its webview sometimes stays blank in code-server: choosing another step and this one again, as a user
      // would, loads it anew.
      await step(page, STEPS[1] as string)
        .locator('.step-title')
        .click();
      await step(page, STEPS[0] as string)
        .locator('.step-title')
        .click();
    }
    await saveScreenshot(page, 'walkthrough');
  });

  it('Add Connection asks for the new connection, and adding it ticks the step', async () => {
    const { page, service: local } = workbench();
    await untick(page, 'Add a connection');
    await clickStepButton(page, 'Add a connection', 'Add Connection');
    const input = page.locator('.quick-input-widget');
    await input.getByText('Add ConvAI Connection').waitFor();
    await answerNewConnection(page, PROBE, local.url, local.adminToken);
    await input.waitFor({ state: 'hidden' });
    await ticked(page, 'Add a connection');
    // The step ticks when the command starts; the connection is there once its token is stored and the view lists it.
    await treeRow(await openConvAiView(page), PROBE, 1).waitFor();
    await removeConnection(page, PROBE);
  });

  it('Show the ConvAI View brings the tree into view and focus', async () => {
    const { page } = workbench();
    await untick(page, 'Browse the ConvAI view');
    // Another view in the side bar first, so that showing the tree is the button's doing.
    await page.locator('.activitybar .action-label[aria-label^="Explorer"]').click();
    const tree = page.locator('.monaco-list[role="tree"][aria-label="Resources"]');
    await tree.waitFor({ state: 'hidden' });
    await clickStepButton(page, 'Browse the ConvAI view', 'Show the ConvAI View');
    await treeRow(tree, uiConnectionName, 1).waitFor();
    await page.waitForFunction(`document.activeElement?.closest('.monaco-list[aria-label="Resources"]')`);
    await ticked(page, 'Browse the ConvAI view');
  });

  it('Go to Resource opens the chosen prompt beside the walkthrough; saving an edit of it ticks the step', async () => {
    const { page } = workbench();
    await untick(page, 'Edit and save a prompt');
    await clickStepButton(page, 'Edit and save a prompt', 'Go to Resource');
    await choose(page, PROMPT);
    await page.locator(`.editor-group-container.active .tab.active[data-resource-name="${promptId}.json"]`).waitFor();
    await page.locator('.editor-group-container.active .view-lines', { hasText: PROMPT }).waitFor();
    await page.locator('.editor-group-container:not(.active) .tab.active', { hasText: 'Walkthrough' }).waitFor();
    // Opening the prompt is not editing it.
    assert.equal(await step(page, 'Edit and save a prompt').getAttribute('aria-checked'), 'false');
    await editAfter(page, `${DESCRIPTION}.`, 'Backspace');
    assert.equal(
      (await service.get(kindById('prompt'), promptId, TENANT)).description,
      DESCRIPTION,
      'the service holds the edit',
    );
    await ticked(page, 'Edit and save a prompt');
  });

  it('Test Prompt tests the open prompt and shows the answer, which ticks the step', async () => {
    const { page } = workbench();
    await untick(page, 'Test the prompt');
    await clickStepButton(page, 'Test the prompt', 'Test Prompt');
    // Opening the form is not testing.
    await resultsPanel(page).locator('#input-json').waitFor();
    assert.equal(await step(page, 'Test the prompt').getAttribute('aria-checked'), 'false');
    await answerTestPrompt(page, QUESTION, 'customer_name', '{"customer_name": "Ada"}');
    await resultsPanel(page)
      .locator('pre', { hasText: `Echo (gpt-4o): ${QUESTION}` })
      .first()
      .waitFor();
    await ticked(page, 'Test the prompt');
    await runCommand(page, 'View: Close All Editors');
  });
});
