// Test Prompt as a user answers it, and the results panel where its inputs are asked and the service's answer shows.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';

/**
 * The results panel's content: VS Code puts a webview in an iframe holding another. Found by the extension that
 * owns it, since the workbench has webviews of its own (a walkthrough's Markdown).
 */
export function resultsPanel(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview.ready[src*="extensionId=convai.convai-config"]')
    .frameLocator('iframe#active-frame');
}

/** Answers Test Prompt's form in the results panel once it shows prompt_params prefilled with `placeholder`; runs with Ctrl+Enter. */
export async function answerTestPrompt(page: Page, text: string, placeholder: string, params: string): Promise<void> {
  const panel = resultsPanel(page);
  const json = panel.locator('#input-json');
  await json.waitFor();
  assert.ok((await json.inputValue()).includes(`"${placeholder}"`), `prompt_params is prefilled with ${placeholder}`);
  await panel.locator('#input-text').fill(text);
  await json.fill(params);
  await json.press('Control+Enter');
}
