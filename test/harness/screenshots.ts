// Where a UI test's named screenshot goes: always test-output/ui-<name>.png; a README picture also goes to the
// folder `npm run screenshots` names in CONVAI_SCREENSHOTS (media/screenshots/), so the README shows what a test saw.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { testOutputDir } from './paths';

export interface ScreenshotOptions {
  /** A README picture: taken tidy (no panel, notification or hover) and also written to CONVAI_SCREENSHOTS. */
  readme?: boolean;
}

/** Saves the page as `name`; resolves with the test-output file. */
export async function saveScreenshot(
  page: Page,
  name: string,
  { readme = false }: ScreenshotOptions = {},
): Promise<string> {
  // Tidied in both modes, so that test-output/ shows what the README would.
  if (readme) await tidy(page);
  // Finishes transitions first, such as a resize sash fading out after a drag.
  const picture = await page.screenshot({ animations: 'disabled' });
  const file = path.join(testOutputDir, `ui-${name}.png`);
  fs.writeFileSync(file, picture);
  const readmeDir = process.env.CONVAI_SCREENSHOTS;
  if (readme && readmeDir) fs.writeFileSync(path.join(readmeDir, `${name}.png`), picture);
  return file;
}

/** Clears what a README picture should not show; a notification that stays (an error) fails the test. */
async function tidy(page: Page): Promise<void> {
  const panel = page.locator('.part.panel');
  if (await panel.isVisible()) {
    await page.keyboard.press('Control+j');
    await panel.waitFor({ state: 'hidden' });
  }
  await page.locator('.notification-toast').first().waitFor({ state: 'hidden' });
  // An extension's status-bar message from an earlier step ("Saved …" lasts 5 s) goes when its time is up.
  await page.locator('.part.statusbar [id="status.extensionMessage"]').waitFor({ state: 'detached' });
  // So does the workbench's own progress, such as "Activating Extensions…" when a language's support starts.
  await page.locator('.part.statusbar', { hasText: 'Activating Extensions' }).waitFor({ state: 'hidden' });
  // The activity bar's empty middle shows no hover, and leaving the last element closes its hover.
  const bar = await page.locator('.part.activitybar').boundingBox();
  if (bar) await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height * 0.6);
}
