// A prompt's system instructions as a Markdown document of their own, as a user goes through it: open it from the
// tree, write a paragraph with a placeholder, save, and see the prompt's JSON beside it.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient, samplePromptId } from './service';
import { collapse, expand, openConvAiView, runCommand, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';

const TENANT = 1;
const PROMPT = 'Order Triage';
const PARAGRAPH = 'Always greet {{customer_name}} by name.';
/** Another prompt of the tenant, whose system part is a second `system.md`. */
const OTHER = 'Support Greeting';

/** The status bar's entry that names whose part the active editor holds, as it reads for `owner`'s system part. */
function partOwner(page: Page, owner: string): Locator {
  return page.locator('.part.statusbar .statusbar-item', { hasText: `${owner} · system` });
}

describe("a prompt's system part, from the tree", () => {
  let service: ServiceClient;
  let tree: Locator;
  let id = 0;

  before(async () => {
    service = adminClient();
    id = await samplePromptId(service, TENANT, PROMPT);
  });
  after(async () => {
    await service.close();
  });

  it('expands the prompt into its parts and opens system.md', async () => {
    const { page } = workbench();
    tree = await openConvAiView(page);
    await expand(treeRow(tree, uiConnectionName, 1));
    await expand(treeRow(tree, 'Acme Support', 2));
    await expand(treeRow(tree, 'AI Prompts', 3));
    await expand(treeRow(tree, PROMPT, 4));
    for (const part of ['system', 'user_prompt', 'assistant', 'function_defs', 'settings'])
      await treeRow(tree, part, 5).first().waitFor();
    await treeRow(tree, 'system', 5).first().click();
    await page.locator('.tabs-container .tab.active[data-resource-name="system.md"]').waitFor();
    // The tab reads system.md for every prompt: the status bar says whose it is.
    await partOwner(page, PROMPT).waitFor();
  });

  it('writes a paragraph with a placeholder, highlighted apart from the text', async () => {
    const { page } = workbench();
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(`\n\n${PARAGRAPH}`);
    const lines = page.locator('.editor-group-container.active .view-lines');
    // Monaco gives each distinct token colour its own span and mtk class; the placeholder's comes from its semantic token.
    const placeholder = lines.locator('span > span', { hasText: /^\{\{customer_name\}\}$/ });
    await placeholder.waitFor();
    // Monaco draws spaces as no-break spaces, which \s matches.
    const before = lines.locator('span > span', { hasText: /^Always\sgreet\s$/ });
    assert.notEqual(await placeholder.getAttribute('class'), await before.getAttribute('class'));
    // And a background of its own (convai.placeholderBackground), drawn in the editor's overlay layer.
    const mark = page.locator('.editor-group-container.active .view-overlays div[class*="ced-"]').first();
    await mark.waitFor();
    // Runs in the page, whose DOM types this project's tsconfig does not hold.
    const background = await mark.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
          element,
        ).backgroundColor,
    );
    assert.match(background, /^rgba?\(/, background);
    assert.notEqual(background, 'rgba(0, 0, 0, 0)');
  });

  it('saves with Ctrl+S: the service holds the new system text', async () => {
    const { page } = workbench();
    await page.keyboard.press('Control+s');
    await page
      .locator('.tabs-container .tab.active[data-resource-name="system.md"].dirty')
      .waitFor({ state: 'detached' });
    const system = String((await service.get(kindById('prompt'), id, TENANT)).system);
    assert.ok(system.endsWith(`\n\n${PARAGRAPH}`), `the service holds:\n${system}`);
  });

  it("shows the prompt's JSON beside the part, with the saved text in it", async () => {
    const { page } = workbench();
    // A copy of the part to the right (moving the only editor would close the emptied group), then the JSON on the left.
    await runCommand(page, 'View: Split Editor Right');
    await page.locator('.editor-group-container').nth(1).waitFor();
    await runCommand(page, 'View: Focus First Editor Group');
    await treeRow(tree, PROMPT, 4).locator('.label-name').click();
    await page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`).waitFor();
    const json = page.locator('.editor-group-container.active .view-lines');
    await json.filter({ hasText: 'by name.' }).waitFor();
    await setSideBarWidth(page, 410);
    await saveScreenshot(page, 'prompt-parts', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });

  it('names the prompt of whichever system.md is active, and nothing for a whole document', async () => {
    const { page } = workbench();
    await treeRow(tree, 'system', 5).first().click();
    await partOwner(page, PROMPT).waitFor();
    // Kept open beside the next part, rather than replaced by it as a preview is.
    await runCommand(page, 'View: Keep Editor');
    await collapse(treeRow(tree, PROMPT, 4));
    await expand(treeRow(tree, OTHER, 4));
    await treeRow(tree, 'system', 5).first().click();
    const tabs = page.locator('.editor-group-container.active .tab[data-resource-name="system.md"]');
    await tabs.nth(1).and(page.locator('.active')).waitFor();
    await partOwner(page, OTHER).waitFor();
    assert.equal(await partOwner(page, PROMPT).count(), 0);
    await saveScreenshot(page, 'part-owner');
    // Back to the first prompt's tab, which reads the same.
    await tabs.nth(0).click();
    await partOwner(page, PROMPT).waitFor();
    assert.equal(await partOwner(page, OTHER).count(), 0);
    // A prompt's JSON names itself in its tab: the entry goes.
    await treeRow(tree, OTHER, 4).locator('.label-name').click();
    await page.locator('.tabs-container .tab.active[data-resource-name$=".json"]').waitFor();
    await page.locator('.part.statusbar .statusbar-item', { hasText: ' · system' }).waitFor({ state: 'detached' });
    await runCommand(page, 'View: Close All Editors');
    // The tree as the tests before left it.
    await collapse(treeRow(tree, OTHER, 4));
    await expand(treeRow(tree, PROMPT, 4));
  });
});
