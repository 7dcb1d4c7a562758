// The ConvAI tree of a tenant of 50,000 prompts (contract "Large tenants"), as a user meets it: a connection to a
// service holding Bulk Co, its AI Prompts in groups with their counts, a group expanded into its prompts.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { startLocalService } from '../harness/local-service';
import type { RunningService } from '../service/server';
import { LARGE_TENANT } from '../service/large-tenant';
import { collapse, expand, openConvAiView, rowText, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';
import { addConnection, removeConnection } from './connections';

const CONNECTION = 'bulk';

describe('ConvAI tree of a tenant of 50,000 prompts', function () {
  this.timeout(120_000);
  let large: RunningService;
  let tree: Locator;

  before(async () => {
    large = await startLocalService({ largeTenant: true });
  });

  after(async () => {
    const { page } = workbench();
    await removeConnection(page, CONNECTION);
    await large.close();
  });

  it('adds a connection to the service that holds Bulk Co', async () => {
    const { page } = workbench();
    await addConnection(page, CONNECTION, large.url, large.adminToken);
    tree = await openConvAiView(page);
  });

  it('shows the 50,000 prompts in groups with their counts', async () => {
    // The sample tenants' kinds, expanded by tests before, would show rows of the same names.
    await collapse(treeRow(tree, uiConnectionName, 1));
    await expand(treeRow(tree, CONNECTION, 1));
    await expand(treeRow(tree, LARGE_TENANT, 2));
    const prompts = treeRow(tree, 'AI Prompts', 3);
    await prompts.locator('.label-description').filter({ hasText: '50000' }).waitFor();
    await expand(prompts);
    const first = treeRow(tree, 'group-001', 4);
    await first.waitFor();
    assert.deepEqual(await rowText(first), { label: 'group-001', description: '250' });
    // The list draws the rows in view only; each is a group of 250, none a prompt.
    const shown = await Promise.all((await tree.locator('.monaco-list-row[aria-level="4"]').all()).map(rowText));
    assert.ok(shown.length > 5, `${shown.length} rows`);
    assert.ok(
      shown.every((row) => /^group-\d{3}$/.test(row.label) && row.description === '250'),
      JSON.stringify(shown),
    );
  });

  it('expands a group into its prompts, opens one and saves a screenshot', async () => {
    const { page } = workbench();
    const group = treeRow(tree, 'group-002', 4);
    await expand(group);
    const prompt = tree.locator('.monaco-list-row[aria-level="5"]').first();
    await prompt.waitFor();
    const { label, description } = await rowText(prompt);
    assert.match(description, /group group-002/);
    await prompt.click();
    await page.locator('.editor-group-container.active .view-lines', { hasText: label }).waitFor();
    // The picture shows the groups; the opened prompt, beside them, came from one.
    await collapse(group);
    await setSideBarWidth(page, 520);
    await saveScreenshot(page, 'large-tenant-tree', { readme: true });
  });
});
