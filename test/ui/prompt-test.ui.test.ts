// A prompt test as a user runs it: the CodeLens above the prompt, the test text, the parameters prefilled from the
// prompt's placeholders, and the answer in the results panel, where hostile text stays text.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { request } from 'undici';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { testOutputDir } from '../harness/paths';
import { uiConnectionName } from '../harness/ui-workbench';
import { resultsPanel } from './results-panel';
import { openConvAiView, treeRow } from './tree-view';
import { workbench } from './workbench';

// Tenant 2: the tree test counts tenant 1's prompts.
const TENANT = 2;
const HOSTILE = '<img src=x onerror=alert(1)> & <script>alert(2)</script>';

describe('a prompt test in the editor', () => {
  let service: ServiceClient;
  let id = 0;

  before(async () => {
    const { service: running } = workbench();
    service = new ServiceClient({ baseUrl: running.url, token: () => running.adminToken });
    id = (await service.create(kindById('prompt'), { name: 'Panel probe', user_prompt: 'Greet {{customer_name}}', ai_model: 'gpt-4o' }, TENANT)).id as number;
  });
  after(async () => service.close());

  it('runs from the CodeLens and shows the answer in the results panel', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.fill('>ConvAI: Go to Resource…');
    await input.press('Enter');
    await input.fill('Panel probe');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Panel probe' }).waitFor();
    await input.press('Enter');
    await page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`).waitFor();

    await page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Test Prompt' }).click();
    await input.fill(HOSTILE);
    await input.press('Enter');
    // The parameters come prefilled with the prompt's placeholders.
    // A property, not an attribute: evaluated in the page (as text, since Node has no DOM types).
    await page.waitForFunction("document.querySelector('.quick-input-widget input')?.value.includes('customer_name')");
    await input.fill('{"customer_name": "Ada"}');
    await input.press('Enter');

    const panel = resultsPanel(page);
    await panel.getByText('Echo (gpt-4o):').first().waitFor();
    const response = await panel.locator('pre', { hasText: 'Echo (gpt-4o)' }).first().innerText();
    assert.equal(response, `Echo (gpt-4o): ${HOSTILE}`, 'the HTML in the answer is shown as text');
    assert.equal(await panel.locator('img').count(), 0, 'no element was made from the answer');
    await panel.getByText('Greet Ada').first().waitFor();
    await page.screenshot({ path: path.join(testOutputDir, 'ui-prompt-test.png'), animations: 'disabled' });
  });

  it('cancels a slow run from the panel and says so', async () => {
    const { page, service: running } = workbench();
    await setLatency(running.url, 30_000);
    try {
      await resultsPanel(page).getByRole('button', { name: 'Run again' }).click();
      await resultsPanel(page).getByRole('button', { name: 'Cancel' }).click();
      await resultsPanel(page).getByText('Cancelled').first().waitFor();
    } finally {
      await setLatency(running.url, 0);
    }
  });
});

/** Slows every API request of the local service down (its test-mode fault route). */
async function setLatency(serviceUrl: string, latencyMs: number): Promise<void> {
  const response = await request(`${serviceUrl}/__test/faults`, latencyMs > 0
    ? { method: 'POST', body: JSON.stringify({ latencyMs }), headers: { 'content-type': 'application/json' } }
    : { method: 'DELETE' });
  assert.equal(response.statusCode, 200, await response.body.text());
}
