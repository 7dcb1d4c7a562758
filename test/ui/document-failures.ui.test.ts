// What a user sees when a document cannot be read or saved: the editor of a document that failed to open says only
// "unexpected error", so the reason and its fix show beside it; a save refused with 401 offers Set Token.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import type { Fault } from '../service/faults';
import { uiConnectionName } from '../harness/ui-workbench';
import { notification } from './notifications';
import { goToResource, runCommand } from './tree-view';
import { workbench } from './workbench';

const TENANT = 2;
const functions = kindById('function');

async function faults(method: 'POST' | 'DELETE', ...queue: Fault[]): Promise<void> {
  const response = await fetch(`${workbench().service.url}/__test/faults`, {
    method,
    ...(method === 'POST' ? { body: JSON.stringify({ queue }), headers: { 'content-type': 'application/json' } } : {}),
  });
  assert.equal(response.status, 200, await response.text());
}

/** Opens a resource whose detail the service answers with `fault`; resolves with the notification that explains it. */
async function failedOpen(page: Page, id: number, name: string, fault: Fault, reason: RegExp): Promise<string> {
  await faults('POST', { ...fault, match: `GET /api/v1/ai_functions/${id}`, count: 20 });
  await goToResource(page, uiConnectionName, name, id);
  await page.locator('.editor-group-container.active', { hasText: 'could not be opened' }).waitFor();
  const shown = await notification(page, reason);
  return shown.innerText();
}

describe('documents that cannot be read or saved', () => {
  let service: ServiceClient;
  const ids: number[] = [];

  before(async () => {
    const { service: running } = workbench();
    service = new ServiceClient({ baseUrl: running.url, token: () => running.adminToken });
    for (const name of ['redirected_probe', 'gateway_probe', 'token_probe']) {
      ids.push((await service.create(functions, { name, description: 'original' }, TENANT)).id as number);
    }
  });
  afterEach(async () => {
    await faults('DELETE');
    const { page } = workbench();
    await runCommand(page, 'Notifications: Clear All Notifications');
  });
  after(async () => {
    await runCommand(workbench().page, 'View: Close All Editors');
    for (const id of ids) await service.delete(functions, id, TENANT);
    await service.close();
  });

  it('shows why a redirected read failed, and the fix', async () => {
    const text = await failedOpen(
      workbench().page,
      ids[0] as number,
      'redirected_probe',
      { status: 302, location: 'https://login.example.com/', body: '' },
      /was redirected/,
    );
    assert.match(
      text,
      /was redirected \(302 Found\) to https:\/\/login\.example\.com\/\. Redirects are not followed.*change/,
    );
  });

  it("shows why a read answered by a gateway's HTML page failed, and the fix", async () => {
    const page = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
    const text = await failedOpen(
      workbench().page,
      ids[1] as number,
      'gateway_probe',
      { status: 502, body: page, contentType: 'text/html' },
      /502 Bad Gateway/,
    );
    assert.match(text, /failed with 502 Bad Gateway: .*try again later/);
    assert.doesNotMatch(text, /<html|<h1/);
  });

  it('offers Set Token when a save is refused with 401', async () => {
    const { page } = workbench();
    const id = ids[2] as number;
    await goToResource(page, uiConnectionName, 'token_probe', id);
    await page.locator('.editor-group-container.active .view-lines span', { hasText: /^"original"$/ }).dblclick();
    await page.keyboard.type('mine');
    await faults('POST', { match: `PUT /api/v1/ai_functions/${id}`, status: 401, body: '{"error":"token expired"}' });
    await page.keyboard.press('Control+s');
    // VS Code's own message of the failed save says 401 too, with its Retry, Save As and Revert.
    await notification(page, /401 Unauthorized/);
    const notifications = page.locator(
      '.notifications-toasts .notification-toast, .notifications-center .notification-list-item',
    );
    await notifications
      .filter({ hasText: /401 Unauthorized/ })
      .filter({ has: page.getByRole('button', { name: 'Set Token' }) })
      .first()
      .waitFor();
    await runCommand(page, 'File: Revert File');
  });
});
