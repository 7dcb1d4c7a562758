// New Resource… from the palette asks the kind, then the tenant from a list: the connection's tenants that the
// tree shows, read once from the service for both.
import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient } from './service';
import { choose, collapse, expand, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const TENANT = 2;
const TENANT_NAME = 'Voicebox Telecom';
const AGENT = 'Picked Tenant Agent';
const agents = kindById('agent');

async function tenantListGets(): Promise<number> {
  const log = (await (await fetch(`${workbench().service.url}/__test/requests`)).json()) as {
    method: string;
    path: string;
  }[];
  return log.filter((r) => r.method === 'GET' && r.path === '/api/v1/tenants').length;
}

async function createdAgent(service: ServiceClient): Promise<number | undefined> {
  const found = (await service.list(agents, TENANT)).find((a) => a.name === AGENT);
  return typeof found?.id === 'number' ? found.id : undefined;
}

describe('creating a resource from the palette', () => {
  let service: ServiceClient;

  before(() => {
    service = adminClient();
  });
  after(async () => {
    const { page } = workbench();
    // A pick or input a failed step left open.
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    const id = await createdAgent(service);
    if (id !== undefined) await service.delete(agents, id, TENANT);
    await runCommand(page, 'ConvAI: Refresh');
    await service.close();
  });

  it('picks the tenant from the list the tree shows, with one GET of the tenants for both', async () => {
    const { page } = workbench();
    const tree = await openConvAiView(page);
    const connection = treeRow(tree, uiConnectionName, 1);
    await connection.waitFor();
    // Collapsed, Refresh reloads nothing yet: the tenants are loaded once, when it is expanded below.
    await collapse(connection);
    await runCommand(page, 'ConvAI: Refresh');
    await fetch(`${workbench().service.url}/__test/requests`, { method: 'DELETE' });
    await expand(connection);
    await treeRow(tree, TENANT_NAME, 2).waitFor();

    await runCommand(page, 'ConvAI: New Resource…');
    await choose(page, 'Agent');
    await choose(page, TENANT_NAME);
    const input = page.locator('.quick-input-widget input');
    await input.fill(AGENT);
    await input.press('Enter');

    const deadline = Date.now() + 20_000;
    while ((await createdAgent(service)) === undefined) {
      assert.ok(Date.now() < deadline, `the agent was not created in tenant ${TENANT}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(await tenantListGets(), 1, 'the picker read the tenants the tree had loaded');
  });
});
