// The ConvAI tree as a user sees it: open the view, expand down to a tenant's prompts, read them, open one.
// The tests run in order and build on each other, like the clicks of one session.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { Store } from '../service/store';
import { expand, openConvAiView, RowText, rowText, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';

// The domain's names, written out rather than taken from src/, so that the extension's wording is checked too.
const promptTypes: Readonly<Record<number, string>> = {
  1: 'Standard',
  2: 'Group',
  3: 'API',
  4: 'Data analysis',
  5: 'Data summary',
};
const promptModes: Readonly<Record<number, string>> = { 1: 'Activated', 2: 'Deactivated', 3: 'Simulated' };

interface ShownPrompt extends RowText {
  id: number;
}

/** Acme Support's (tenant 1) prompts as the local service serves them: a fresh store holds the sample data. */
function acmePrompts(): ShownPrompt[] {
  return new Store().list('prompt', 1).map(({ id, values }) => {
    const group = typeof values.group === 'string' && values.group !== '' ? `group ${values.group}` : undefined;
    const parts = [promptTypes[Number(values.prompt_type)], promptModes[Number(values.mode)], group];
    return { id, label: String(values.name), description: parts.filter(Boolean).join(' · ') };
  });
}

const byLabel = (a: RowText, b: RowText): number => a.label.localeCompare(b.label);

describe('ConvAI tree in a live workbench', () => {
  const prompts = acmePrompts();
  const firstPrompt = prompts[0];
  let tree: Locator;

  it('shows the connection `local` in the ConvAI view', async () => {
    tree = await openConvAiView(workbench().page);
    await treeRow(tree, uiConnectionName, 1).waitFor();
  });

  it('expands the connection, the tenant Acme Support (#1) and its AI Prompts', async () => {
    await expand(treeRow(tree, uiConnectionName, 1));
    const tenant = treeRow(tree, 'Acme Support', 2);
    await expand(tenant);
    assert.match((await rowText(tenant)).description, /#1\b/);
    // The other tenant stays collapsed, so this is Acme Support's.
    await expand(treeRow(tree, 'AI Prompts', 3));
  });

  it("lists tenant 1's prompts with their type, mode and group", async () => {
    assert.ok(firstPrompt, 'the sample data has no prompts for tenant 1');
    // The children arrive in one answer from the service: once one shows, all do.
    await treeRow(tree, firstPrompt.label, 4).waitFor();
    const shown = await Promise.all((await tree.locator('.monaco-list-row[aria-level="4"]').all()).map(rowText));
    const expected = prompts.map(({ label, description }) => ({ label, description }));
    assert.deepEqual(shown.sort(byLabel), expected.sort(byLabel));
  });

  it('shows the number of prompts beside AI Prompts', async () => {
    // Empty until the service has answered.
    const count = treeRow(tree, 'AI Prompts', 3).locator('.label-description').filter({ hasText: /^\d+$/ });
    await count.waitFor();
    assert.equal(await count.innerText(), String(prompts.length));
  });

  it('opens a prompt as <id>.json when it is clicked, its tab named by its name and kind', async () => {
    assert.ok(firstPrompt);
    const { page } = workbench();
    await treeRow(tree, firstPrompt.label, 4).click();
    const tab = page.locator(`.tabs-container .tab.active[data-resource-name="${firstPrompt.id}.json"]`);
    await tab.waitFor();
    assert.equal(await tab.locator('.label-name').innerText(), `${firstPrompt.label} · AI Prompt`);
    // Monaco draws the visible lines only; the name is near the top of the document.
    const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await lines.filter({ hasText: firstPrompt.label }).waitFor();
    const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(text.includes(`"name": ${JSON.stringify(firstPrompt.label)}`), `the editor shows:\n${text}`);
  });

  it('saves a screenshot of the expanded tree', async () => {
    const { page } = workbench();
    // Wide enough for whole descriptions.
    await setSideBarWidth(page, 660);
    await saveScreenshot(page, 'tree', { readme: true });
  });
});
