// Refresh of a connection in the ConvAI view, as a user clicks it on the row: the tenants load again and stay listed,
// however their answer and the redraws it brings cross what the tree is loading at that moment.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { request } from 'undici';
import { uiConnectionName } from '../harness/ui-workbench';
import { collapse, expand, openConvAiView, treeRow } from './tree-view';
import { workbench } from './workbench';

/** Holds back the body of the next answer to `match` for `ms`, as a busy service does. */
async function slowAnswer(match: string, ms: number): Promise<void> {
  const body = JSON.stringify({ queue: [{ match, stallBodyMs: ms }] });
  const answer = await request(`${workbench().service.url}/__test/faults`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(answer.statusCode, 200, await answer.body.text());
}

/** How many times the service was asked for the tenants (its request log). */
async function tenantListings(): Promise<number> {
  const response = await request(`${workbench().service.url}/__test/requests`);
  const log = (await response.body.json()) as { method: string; path: string }[];
  return log.filter((r) => r.method === 'GET' && r.path === '/api/v1/tenants').length;
}

/** Clicks the Refresh button a row shows under the pointer. */
async function clickInlineRefresh(row: Locator): Promise<void> {
  await row.hover();
  await row.locator('.actions .action-label[aria-label="Refresh"]').click();
}

/**
 * Waits until the service has been asked for the tenants more than `before` times. Its request log has no event to
 * wait on, so it is read again at the pace of the page's frames, as a user's eye would.
 */
async function tenantsAsked(page: Page, before: number): Promise<void> {
  for (let look = 0; (await tenantListings()) <= before; look++) {
    if (look === 400) throw new Error('the service was not asked for the tenants again after Refresh');
    await page.waitForTimeout(50);
  }
}

describe('Refresh of a connection in the ConvAI view', () => {
  let tree: Locator;
  let connection: Locator;

  before(async () => {
    tree = await openConvAiView(workbench().page);
    connection = treeRow(tree, uiConnectionName, 1);
    await connection.waitFor();
    // Only this connection's tenants are shown, so that a tenant's row is this connection's (others share the names).
    for (const other of await tree.locator('.monaco-list-row[aria-level="1"][aria-expanded="true"]').all()) {
      if ((await other.locator('.label-name').innerText()) !== uiConnectionName) await collapse(other);
    }
  });

  it('keeps the tenants listed when Refresh is clicked on the expanded connection while they load', async () => {
    const { page } = workbench();
    await expand(connection);
    await treeRow(tree, 'Acme Support', 2).waitFor();
    await collapse(treeRow(tree, 'Acme Support', 2));
    for (let click = 0; click < 3; click++) {
      const before = await tenantListings();
      await slowAnswer('GET /api/v1/tenants', 1_000);
      await clickInlineRefresh(connection);
      await tenantsAsked(page, before);
    }
    // Listed, and known to the extension: expanding a tenant lists its kinds.
    const tenant = treeRow(tree, 'Acme Support', 2);
    await expand(tenant);
    await treeRow(tree, 'AI Prompts', 3).waitFor();
    await collapse(tenant);
  });
});
