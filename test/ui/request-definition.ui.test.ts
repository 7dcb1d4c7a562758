// Writing a request definition as a user does: the template, placeholder highlighting from the injection grammar,
// and a preview from the CodeLens.
import * as assert from 'node:assert/strict';
import { saveScreenshot } from '../harness/screenshots';
import { runCommand } from './tree-view';
import { workbench } from './workbench';

describe('an API request definition in the editor', () => {
  it('starts from the commented template', async () => {
    const { page } = workbench();
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ConvAI: New API Request Definition');
    const input = page.locator('.quick-input-widget input');
    await input.fill('table-booking');
    await input.press('Enter');
    await page.locator('.tabs-container .tab.active[data-resource-name="table-booking.apirequest.json"]').waitFor();
    await page.locator('.editor-group-container.active .view-lines', { hasText: '{{order_id}}' }).waitFor();
  });

  it('highlights {{placeholders}} apart from the rest of the string', async () => {
    const { page } = workbench();
    const lines = page.locator('.editor-group-container.active .view-lines');
    // A pointer resting on the URL (where an earlier test left it) underlines it as a link, splitting its spans.
    await page.mouse.move(0, 0);
    const name = lines.locator('span > span', { hasText: /^order_id$/ }).first();
    // Adjacent tokens of one colour are merged: the string before the name ends with its braces.
    // The URL may be drawn as a link, which splits it into more spans: any span of it before the braces will do.
    const before = lines.locator('span > span', { hasText: /api\.example\.com/ }).first();
    await name.waitFor();
    // Monaco gives each distinct token colour its own mtk class.
    assert.notEqual(await name.getAttribute('class'), await before.getAttribute('class'));
  });

  it('previews the request from the CodeLens, with the key masked', async () => {
    const { page } = workbench();
    await page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Preview Request' }).click();
    const input = page.locator('.quick-input-widget input');
    await page.waitForFunction("document.querySelector('.quick-input-widget input')?.value.includes('order_id')");
    await input.fill('{"order_id": "A 1042"}');
    await input.press('Enter');
    const preview = page.locator('.editor-group-container .view-lines', { hasText: 'A%201042' });
    await preview.waitFor();
    const text = (await preview.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /"url": "https:\/\/api\.example\.com\/orders\/A%201042"/);
    assert.match(text, /"Authorization": "Bearer ••••••"/);
    assert.match(text, /"say_before": "One moment while I look that up\."/);
    await saveScreenshot(page, 'request-preview', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });
});
