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
  if (!(await tree.isVisible()))
    await page.locator(`.activitybar .action-label[aria-label="${containerTitle}"]`).click();
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

/** The quick input's own elements, as the page's script sees them. */
interface QuickInputState {
  shown: boolean;
  focused: boolean;
  value: string;
  active: string;
}

/** Whether the quick input shows, holds the keyboard and what it holds; and which element has the keyboard. */
function quickInputState(page: Page): Promise<QuickInputState> {
  return page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          activeElement: { tagName: string; className: string } | null;
          querySelector(s: string): { value: string; offsetParent: unknown } | null;
        };
      }
    ).document;
    const input = doc.querySelector('.quick-input-widget input');
    const active = doc.activeElement;
    return {
      shown: input !== null && input.offsetParent !== null,
      focused: input !== null && active === (input as unknown),
      value: input?.value ?? '',
      active: active ? `${active.tagName.toLowerCase()}.${String(active.className).split(' ').join('.')}` : 'nothing',
    };
  });
}

/**
 * Gives the keyboard to the workbench itself before a quick input opens. A quick input hands the keyboard back, when it
 * closes, to the element that had it; with none there (or a webview's frame), VS Code gives it to the active editor,
 * and a webview (the results panel, the flow map) takes it a moment later, asynchronously: when that moment came after
 * the next question had opened (Pull Tenant's tenant after its connection), the question lost the keyboard and closed,
 * as a quick input does on losing it, and its input stayed hidden. A key pressed while the frame has the keyboard
 * reaches the workbench only if the webview passes it on, which it did not always do (F1 after the results panel).
 * The side bar's view header, or the activity bar's item, takes it instead, at once, and gives it back at once.
 */
async function keyboardToWorkbench(page: Page): Promise<void> {
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  const state = await quickInputState(page);
  if (!state.active.startsWith('iframe') && !state.active.startsWith('body')) return;
  const candidates = page.locator('.part.sidebar .monaco-list, .part.activitybar .action-item .action-label');
  const count = await candidates.count();
  const tried: string[] = [];
  for (let index = 0; index < count; index++) {
    const candidate = candidates.nth(index);
    if (!(await candidate.isVisible())) continue;
    await candidate.focus();
    const now = (await quickInputState(page)).active;
    tried.push(now);
    if (!now.startsWith('iframe') && !now.startsWith('body')) return;
  }
  throw new Error(
    `the workbench has no element to give the keyboard to; it is at ${state.active} (tried: ${tried.join(', ')})`,
  );
}

/**
 * Runs a command through the palette, as a user types it and picks it, once the palette has opened with its '>' and
 * the keyboard. The palette lists the commands of the active editor's context: a command of an editor shows only once
 * that editor holds its document, which the caller waits for (activeEditorHolds), as a user looks before typing.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await keyboardToWorkbench(page);
  await page.keyboard.press('F1');
  await page
    .waitForFunction(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            activeElement: unknown;
            querySelector(s: string): { value: string; offsetParent: unknown } | null;
          };
        }
      ).document;
      const input = doc.querySelector('.quick-input-widget input');
      return input !== null && input.offsetParent !== null && doc.activeElement === input && input.value === '>';
    })
    .catch(async (error: unknown) => {
      throw new Error(`F1 opened no palette with the keyboard: ${JSON.stringify(await quickInputState(page))}`, {
        cause: error,
      });
    });
  const input = page.locator('.quick-input-widget input');
  await input.fill(`>${title}`);
  // This command's row, not the first: a recently used command that the text also matches comes first
  // ("ConvAI: Plan Push" for "ConvAI: Push").
  const command = page.getByText(title, { exact: true });
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: command, visible: true }).first();
  await row.waitFor().catch(async (error: unknown) => {
    throw new Error(
      `the palette lists no "${title}" for what was typed: ${JSON.stringify(await quickInputState(page))}`,
      { cause: error },
    );
  });
  // Chosen with the keyboard, as the list can re-render under a pointer (a click then ran the row beside it): the
  // focus moves down to the command's row, then Enter runs it.
  const focused = page.locator('.quick-input-list .monaco-list-row.focused').filter({ visible: true });
  for (let step = 0; step < 30; step++) {
    if ((await focused.filter({ has: command }).count()) > 0) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the command palette did not focus "${title}"`);
}

/**
 * Waits for the quick pick a command has just opened: shown, with the keyboard, and still empty (the palette or the
 * question before, while they close, hold what was typed into them).
 */
export async function newQuickPick(page: Page, purpose: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const state = (wanted: 'shown' | 'focused'): Promise<unknown> =>
    page.waitForFunction((focus) => {
      const doc = (
        globalThis as unknown as {
          document: {
            activeElement: unknown;
            querySelector(s: string): { value: string; offsetParent: unknown } | null;
          };
        }
      ).document;
      const field = doc.querySelector('.quick-input-widget input');
      const shown = field !== null && field.offsetParent !== null && field.value === '';
      return shown && (!focus || doc.activeElement === field);
    }, wanted === 'focused');
  try {
    await state('shown');
    // VS Code gives the keyboard back to where it was as the step before closes, which may come after this pick
    // opened (it stays open: ignoreFocusOut); a user then clicks into the pick, as the test does.
    if (!(await input.evaluate((field) => field === field.ownerDocument.activeElement))) await input.click();
    await state('focused');
  } catch (error) {
    const widget = await page
      .locator('.quick-input-widget')
      .innerText({ timeout: 1_000 })
      .catch(() => '(no quick input)');
    throw new Error(
      `no new quick pick ${purpose}: ${JSON.stringify(await quickInputState(page))}, showing ${JSON.stringify(widget)}`,
      { cause: error },
    );
  }
}

/**
 * Types `text` into the quick pick a command has just opened (newQuickPick) and takes the row showing `shown`, once
 * the list has filtered and focused it.
 */
export async function choose(page: Page, text: string, shown = text): Promise<void> {
  await newQuickPick(page, `to choose "${shown}" in`);
  const input = page.locator('.quick-input-widget input');
  await input.fill(text);
  // Visible: the rows of earlier quick picks stay in the page, hidden, and one may be focused and hold the text.
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: shown }).filter({ visible: true });
  await row.waitFor().catch(async (error: unknown) => {
    const widget = await page
      .locator('.quick-input-widget')
      .innerText({ timeout: 1_000 })
      .catch(() => '(no quick input)');
    throw new Error(
      `no row "${shown}" focused after typing "${text}": ${JSON.stringify(await quickInputState(page))}, showing ${JSON.stringify(widget)}`,
      { cause: error },
    );
  });
  await input.press('Enter');
}

/**
 * Opens a resource by its name with Go to Resource, once the ConvAI view shows the connection, and waits for its tab
 * (its document may fail to load: activeEditorHolds waits for a document loaded).
 */
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
 * Waits until the active editor group's editor holds the document its `data-uri` selector names. Its tab shows as
 * soon as it opens, but the group's context (`resourceScheme`, `resourcePath`: what the palette lists an editor's
 * commands by) follows only once the document has loaded, which for a resource is a request to the service.
 */
export async function activeEditorHolds(page: Page, uri: string): Promise<void> {
  await page.locator(`.editor-group-container.active .monaco-editor${uri}`).waitFor();
}
