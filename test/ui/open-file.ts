// A file opened by its URI, for tests that only need it open: the user's way to it is not what they are about.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { writeFileAtomically } from '../harness/atomic-file';
import { waitForFile } from '../harness/wait';
import { workbench } from './workbench';

/**
 * Opens a file the test only needs open, by its URI, in the active editor group with the keyboard (the UI opener,
 * test/harness/ui-opener), and waits for its tab: the user's way to it is not what the test is about.
 */
export async function openFile(page: Page, file: string): Promise<void> {
  const { openRequests } = workbench();
  const request = path.join(openRequests, `${++openings}`);
  writeFileAtomically(`${request}.open`, pathToFileURL(file).toString());
  const opened = await Promise.race([
    waitForFile(`${request}.opened`, 20_000),
    waitForFile(`${request}.failed`, 20_000),
  ]);
  if (fs.existsSync(`${request}.failed`))
    throw new Error(`the workbench did not open ${file}: ${fs.readFileSync(`${request}.failed`, 'utf8')}`);
  if (!opened) throw new Error(`the workbench did not answer the request to open ${file} within 20 s`);
  // The active group's tab, its editor with the keyboard: what the commands run next take as the active editor.
  const group = page.locator('.editor-group-container.active');
  await group.locator(`.tabs-container .tab.active[data-resource-name="${path.basename(file)}"]`).waitFor();
  await group.locator('.monaco-editor.focused').waitFor();
}

let openings = 0;
