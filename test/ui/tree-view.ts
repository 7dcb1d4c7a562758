// Playwright handles on the ConvAI view's tree, by what a user sees: row labels, descriptions and expansion.
// The rows' aria-labels are the items' tooltips (VS Code's custom tree view), so rows are found by label text.
import type { Locator, Page } from 'playwright-core';

export interface RowText {
  label: string;
  description: string;
}

/** Opens a view container from the activity bar by its title; resolves with the tree of its view named `viewName`. */
export async function openTreeView(page: Page, containerTitle: string, viewName: string): Promise<Locator> {
  const tree = page.locator(`.monaco-list[role="tree"][aria-label="${viewName}"]`);
  // Clicking the item of the view already showing would hide the side bar.
  if (!(await tree.isVisible())) await page.locator(`.activitybar .action-label[aria-label="${containerTitle}"]`).click();
  await tree.waitFor();
  return tree;
}

/**
 * Opens the Testing view from the activity bar (a click, not the palette: in a fresh page the keyboard reaches the
 * workbench only once something was clicked); resolves with its test explorer. The click goes to the item, not its
 * icon: once a run failed, the item's badge ("2 failed tests") lies over the icon and takes the click.
 */
export async function openTestingView(page: Page): Promise<Locator> {
  const explorer = page.locator('.test-explorer');
  const item = page.locator('.activitybar .action-item:has(> .action-label[aria-label^="Testing"])');
  // Whether the side bar shows it is the item's state: the explorer can be re-rendering, and a click on the item of the
  // view already showing would hide the side bar.
  if (!(await item.getAttribute('class'))?.split(/\s+/).includes('checked')) await item.click();
  await explorer.waitFor();
  return explorer;
}

/** Runs a test item from its row in the Testing view, with the button the row shows under the pointer. */
export async function runFromRow(row: Locator): Promise<void> {
  await row.hover();
  await row.locator('.action-label[aria-label^="Run Test"]').click();
}

/** Runs a suite file from the Testing view until it failed, and expands its row; resolves with the explorer. */
export async function runSuiteToFailure(page: Page, file: string): Promise<Locator> {
  const explorer = await openTestingView(page);
  const suiteRow = explorer.locator('.monaco-list-row', { hasText: file });
  await suiteRow.waitFor();
  await runFromRow(suiteRow);
  await suiteRow.locator('.codicon-testing-failed-icon').waitFor({ timeout: 30_000 });
  await expandedTestRow(suiteRow);
  return explorer;
}

/** Expands a collapsed row of the Testing view. */
export async function expandedTestRow(row: Locator): Promise<void> {
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
}

/** Opens the ConvAI view container from the activity bar; resolves with its tree. */
export function openConvAiView(page: Page): Promise<Locator> {
  return openTreeView(page, 'ConvAI', 'Resources');
}

/** The row whose label is exactly `label`, at `level` (1 = connections) when given. */
export function treeRow(tree: Locator, label: string, level?: number): Locator {
  const rows = tree.locator(level === undefined ? '.monaco-list-row' : `.monaco-list-row[aria-level="${level}"]`);
  return rows.filter({ has: tree.page().locator('.label-name').getByText(label, { exact: true }) });
}

/** Expands a collapsed row and waits until VS Code says it is expanded. */
export async function expand(row: Locator): Promise<void> {
  await setExpanded(row, true);
}

/** Collapses an expanded row and waits until VS Code says it is collapsed. */
export async function collapse(row: Locator): Promise<void> {
  await setExpanded(row, false);
}

async function setExpanded(row: Locator, expanded: boolean): Promise<void> {
  if ((await row.getAttribute('aria-expanded')) === String(!expanded)) await row.locator('.monaco-tl-twistie').click();
  await row.and(row.page().locator(`[aria-expanded="${expanded}"]`)).waitFor();
}

/** What a row shows: its label and the grey description beside it ('' when it has none). */
export async function rowText(row: Locator): Promise<RowText> {
  const label = await row.locator('.label-name').innerText();
  const description = row.locator('.label-description');
  return { label, description: (await description.count()) > 0 ? await description.innerText() : '' };
}

/** Drags the side bar's edge until the side bar is `width` pixels wide, so that pictures do not depend on the tests before. */
export async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('the side bar is not showing');
  // The sash that resizes it straddles its right edge.
  const x = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + width - box.width, y, { steps: 5 });
  await page.mouse.up();
}

/**
 * Opens a quick input with `key`, types `text` and waits for `row`. Under load a key can go unheard, a palette that
 * opens late can put its own '>' over what was typed, and a list shows what was known when it opened (the commands of
 * the editor active then, the files of a search already made): the text is typed again while the input does not hold
 * it, and the quick input is closed and opened again, as a user would, up to five times, each given its full time.
 */
async function quickInputRow(page: Page, key: string, text: string, row: Locator): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const attempts = 5;
  for (let attempt = 0; ; attempt++) {
    // A key pressed while a webview's frame holds the focus reaches the workbench only if the webview passes it on,
    // which it did not always do (F1 after the results panel): the frame is left first, as a click elsewhere would.
    await page.evaluate(() => {
      const active = (globalThis as unknown as { document: { activeElement: { tagName: string; blur(): void } | null } }).document.activeElement;
      if (active?.tagName === 'IFRAME') active.blur();
    });
    await page.keyboard.press(attempt % 2 === 1 && key === 'F1' ? 'Control+Shift+p' : key);
    try {
      await input.waitFor({ state: 'visible', timeout: 4_000 });
      if (attempt === 0) {
        // Bounded as the wait above is: an input shown but never editable (seen after a webview held the focus) is
        // closed and asked for again, not waited on for the whole step.
        await input.fill(text, { timeout: 4_000 });
      } else {
        // A filled value the palette missed stays unfiltered: typed, as a user types it, the next time.
        await input.press('Control+a');
        await page.keyboard.type(text);
      }
      for (let look = 0; look < 8; look++) {
        if (await row.isVisible()) return;
        if (await input.inputValue() !== text) await input.fill(text);
        await row.waitFor({ timeout: 500 }).catch(() => undefined);
      }
      if (await row.isVisible()) return;
      throw new Error(`the quick input showed no row for "${text}"; it holds "${await input.inputValue()}"`);
    } catch (error) {
      if (attempt === attempts - 1) throw error;
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 4_000 }).catch(() => undefined);
    }
  }
}

/**
 * Runs a command through the palette, as a user types it and picks it. The palette lists what the context allows
 * when it opens: opened a moment before an editor just shown became the active one, it lacks that editor's
 * commands, so it is closed and opened again, as a user would, until the command shows or 20 s have passed.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  // This command's row, not the first: a recently used command that the text also matches comes first
  // ("ConvAI: Plan Push" for "ConvAI: Push").
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.getByText(title, { exact: true }) }).first();
  await quickInputRow(page, 'F1', `>${title}`, row);
  // Chosen with the keyboard, as the list can re-render under a pointer (a click then ran the row beside it): the
  // focus moves down to the command's row, then Enter runs it.
  const focused = page.locator('.quick-input-list .monaco-list-row.focused');
  for (let step = 0; step < 30; step++) {
    if (await focused.filter({ has: page.getByText(title, { exact: true }) }).count() > 0) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the command palette did not focus "${title}"`);
}

/**
 * Types `text` into the open quick pick and takes the first row showing `shown`, once the list shows one. A quick
 * pick that opens only after loading its items (Go to Resource) may open while the text is typed into the one
 * closing before it, and it starts empty: then the text is typed again.
 */
export async function choose(page: Page, text: string, shown = text): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: shown }).first();
  const deadline = Date.now() + 20_000;
  for (;;) {
    await input.fill(text);
    const timeout = Math.max(deadline - Date.now(), 1);
    const found = row.waitFor({ timeout }).then(() => true);
    const cleared = page.waitForFunction((typed) => {
      const field = (globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('.quick-input-widget input');
      return field !== null && field.value !== typed;
    }, text, { timeout }).then(() => false);
    // The loser of the race times out later; its rejection is of no interest.
    found.catch(() => undefined);
    cleared.catch(() => undefined);
    try {
      if (await Promise.race([found, cleared])) break;
    } catch (error) {
      // What the quick input showed instead says which input it was.
      const shownInstead = await page.locator('.quick-input-widget').innerText({ timeout: 1_000 }).catch(() => '(no quick input)');
      throw new Error(`no row "${shown}" after typing "${text}"; the quick input showed: ${JSON.stringify(shownInstead)}`, { cause: error });
    }
  }
  // A row found among the rows of the word before (Go to Resource lists its first names until the typed word's
  // arrive) is not yet the one Enter takes: the list is given a moment to put the focus on it.
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: shown }).waitFor({ timeout: 5_000 }).catch(() => undefined);
  await input.press('Enter');
}

/** Opens a resource by its name with Go to Resource, once the ConvAI view shows the connection, and waits for its tab. */
export async function goToResource(page: Page, connection: string, name: string, id: number): Promise<void> {
  await treeRow(await openConvAiView(page), connection, 1).waitFor();
  // The tests make their resources through the service, as another user would: Go to Resource searches the cached
  // listings, so Refresh first, as that user's colleague would.
  await runCommand(page, 'ConvAI: Refresh');
  await runCommand(page, 'ConvAI: Go to Resource…');
  await choose(page, name);
  await page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`).waitFor();
}

/**
 * Opens a workspace file through Quick Open, as a user who knows its name does. A file written a moment ago may be
 * missing from a search already made: Quick Open is closed and opened again, as a user would, for a new one, until
 * the file shows or 20 s have passed.
 */
export async function openFile(page: Page, name: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await quickInputRow(page, 'Control+p', name, row);
  await input.press('Enter');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`).waitFor();
}
