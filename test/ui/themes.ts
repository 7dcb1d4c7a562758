// Colour themes for UI tests that picture a view in a dark and a light theme.
import type { Page } from 'playwright-core';
import { choose, newQuickPick, runCommand } from './tree-view';

/** Picks a colour theme by name; resolves with the one that was on, which the picker shows focused as it opens. */
export async function useTheme(page: Page, theme: string): Promise<string> {
  await runCommand(page, 'Preferences: Color Theme');
  await newQuickPick(page, 'of colour themes');
  // The picker's own row: rows of earlier quick picks stay in the page, hidden.
  const was = (
    await page.locator('.quick-input-list .monaco-list-row.focused .label-name').filter({ visible: true }).innerText()
  ).trim();
  await choose(page, theme);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  return was;
}
