// A prompt test as a user runs it: the CodeLens above the prompt, the test text, the parameters prefilled from the
// prompt's placeholders, and the answer in the results panel, where hostile text stays text.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { answerTestPrompt, resultsPanel } from './results-panel';
import { choose, expand, openConvAiView, runCommand, setSideBarWidth, treeRow } from './tree-view';
import { workbench } from './workbench';

// Tenant 2: the tree test counts tenant 1's prompts.
const TENANT = 2;
const HOSTILE = '<img src=x onerror=alert(1)> & <script>alert(2)</script>';
// The README's picture: a sample prompt of tenant 1, run with a question a user would ask.
const SAMPLE = 'Support Greeting';
const QUESTION = 'Where is my order A-1042?';

describe('a prompt test in the editor', () => {
  let service: ServiceClient;
  let id = 0;

  before(async () => {
    const { service: running } = workbench();
    service = new ServiceClient({ baseUrl: running.url, token: () => running.adminToken });
    id = (
      await service.create(
        kindById('prompt'),
        { name: 'Panel probe', user_prompt: 'Greet {{customer_name}}', ai_model: 'gpt-4o' },
        TENANT,
      )
    ).id as number;
  });
  after(async () => service.close());

  it('runs from the CodeLens and shows the answer in the results panel', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, 'Panel probe');
    await page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`).waitFor();

    await page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Test Prompt' }).click();
    // The parameters come prefilled with the prompt's placeholders.
    await answerTestPrompt(page, HOSTILE, 'customer_name', '{"customer_name": "Ada"}');

    const panel = resultsPanel(page);
    await panel.getByText('Echo (gpt-4o):').first().waitFor();
    const response = await panel.locator('pre', { hasText: 'Echo (gpt-4o)' }).first().innerText();
    assert.equal(response, `Echo (gpt-4o): ${HOSTILE}`, 'the HTML in the answer is shown as text');
    assert.equal(await panel.locator('img').count(), 0, 'no element was made from the answer');
    await panel.getByText('Greet Ada').first().waitFor();
    await saveScreenshot(page, 'prompt-test');
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

  it("runs a prompt from the tree's inline button, the answer beside the prompt", async () => {
    const { page } = workbench();
    await runCommand(page, 'View: Close All Editors');
    const tree = await openConvAiView(page);
    await expand(treeRow(tree, uiConnectionName, 1));
    await expand(treeRow(tree, 'Acme Support', 2));
    await expand(treeRow(tree, 'AI Prompts', 3));
    const sample = (await service.list(kindById('prompt'), 1)).find((p) => p.name === SAMPLE);
    assert.ok(sample, `tenant 1 has the sample prompt ${SAMPLE}`);
    const row = treeRow(tree, SAMPLE, 4);
    await row.locator('.label-name').click();
    await page.locator(`.tabs-container .tab.active[data-resource-name="${String(sample.id)}.json"]`).waitFor();
    await row.hover();
    await row.locator('.action-label[aria-label="Test Prompt"]').click();
    await answerTestPrompt(page, QUESTION, 'customer_name', '{"customer_name": "Ada"}');
    const answer = resultsPanel(page).locator('pre', { hasText: QUESTION }).filter({ hasText: 'Echo' }).first();
    await answer.waitFor();
    assert.equal(await answer.innerText(), `Echo (gpt-4o): ${QUESTION}`);
    await setSideBarWidth(page, 300);
    await saveScreenshot(page, 'results-panel', { readme: true });
  });
});

/** Slows every API request of the local service down (its test-mode fault route). */
async function setLatency(serviceUrl: string, latencyMs: number): Promise<void> {
  const response = await request(
    `${serviceUrl}/__test/faults`,
    latencyMs > 0
      ? { method: 'POST', body: JSON.stringify({ latencyMs }), headers: { 'content-type': 'application/json' } }
      : { method: 'DELETE' },
  );
  assert.equal(response.statusCode, 200, await response.body.text());
}
