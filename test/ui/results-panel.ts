// Test Prompt as a user answers it, and the results panel where the service's answer shows.
import type { FrameLocator, Page } from 'playwright-core';

/**
 * The results panel's content: VS Code puts a webview in an iframe holding another. Found by the extension that
 * owns it, since the workbench has webviews of its own (a walkthrough's Markdown).
 */
export function resultsPanel(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready[src*="extensionId=convai.convai-config"]').frameLocator('iframe#active-frame');
}

/** Answers Test Prompt's two questions: the text, then the parameters once they show prefilled with `placeholder`. */
export async function answerTestPrompt(page: Page, text: string, placeholder: string, params: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.fill(text);
  await input.press('Enter');
  // A property, not an attribute: evaluated in the page (as text, since Node has no DOM types).
  await page.waitForFunction(`document.querySelector('.quick-input-widget input')?.value.includes(${JSON.stringify(placeholder)})`);
  await input.fill(params);
  await input.press('Enter');
}
