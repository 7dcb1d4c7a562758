import type { FrameLocator, Page } from 'playwright-core';

/** The results panel's content: VS Code puts a webview in an iframe holding another. */
export function resultsPanel(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}
