// A connection added and removed through the palette's questions, as a user does: the UI tests that need a second
// service (the large tenant's) or show the walkthrough's first step.
import type { Page } from 'playwright-core';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';

/** Answers the open input box once it asks `prompt`. */
export async function answer(page: Page, prompt: string, value: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-message', { hasText: prompt }).waitFor();
  await page.locator('.quick-input-widget input').fill(value);
  await page.keyboard.press('Enter');
}

/** Answers Add Connection's questions (already asked by the command or a button), read and write, no tenant id. */
export async function answerNewConnection(page: Page, name: string, url: string, token: string): Promise<void> {
  await answer(page, 'A short name', name);
  await answer(page, 'base URL', url);
  await answer(page, 'bearer token', token);
  await answer(page, 'Tenant id', '');
  await choose(page, 'Read and write');
}

/** Adds a connection with the palette's Add Connection, and waits until the view lists it. */
export async function addConnection(page: Page, name: string, url: string, token: string): Promise<void> {
  await runCommand(page, 'ConvAI: Add Connection');
  await answerNewConnection(page, name, url, token);
  await treeRow(await openConvAiView(page), name, 1).waitFor();
}

/** Removes a connection with the palette's Remove Connection: other tests' commands would first ask which one. */
export async function removeConnection(page: Page, name: string): Promise<void> {
  await runCommand(page, 'ConvAI: Remove Connection');
  await choose(page, name);
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).click();
  await page.locator('.monaco-dialog-box').waitFor({ state: 'detached' });
}
