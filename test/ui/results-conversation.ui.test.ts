// Continue Conversation as a user does it in the results panel: a Test Prompt run whose answer names a next prompt
// offers it, the form asks the next text with the carried parameters, and the next prompt's run shows the turns in
// order. The local service routes an answer by its text through the prompt's settings (test/service/README.md).
import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { uiConnectionName } from '../harness/ui-workbench';
import { resultsPanel } from './results-panel';
import { adminClient } from './service';
import { choose, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

// Tenant 2: the tree test counts tenant 1's prompts.
const TENANT = 2;
const FIRST = 'Conversation start probe';
const NEXT = 'Conversation refund probe';

describe('conversations in the results panel', () => {
  let service: ServiceClient;
  let first = 0;
  let next = 0;

  before(async () => {
    service = adminClient();
    next = (await service.create(kindById('prompt'), { name: NEXT }, TENANT)).id as number;
    const settings = JSON.stringify({ routes: [{ when: 'refund', next_prompt_id: next, params: { topic: 'refund' } }] });
    first = (await service.create(kindById('prompt'), { name: FIRST, settings }, TENANT)).id as number;
  });
  after(async () => {
    await service.delete(kindById('prompt'), first, TENANT);
    await service.delete(kindById('prompt'), next, TENANT);
    await service.close();
  });

  const panel = () => resultsPanel(workbench().page);

  it('continues a run at the prompt its answer names, with the carried parameters, and shows the turns in order', async () => {
    const { page } = workbench();
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, FIRST);
    await page.locator(`.tabs-container .tab.active[data-resource-name="${first}.json"]`).waitFor();
    await runCommand(page, 'ConvAI: Test Prompt');
    const text = panel().locator('#input-text');
    await text.waitFor();
    await text.fill('I want a refund');
    await panel().locator('#input-json').fill('{ "caller": "Ada" }');
    await text.press('Control+Enter');

    await panel().getByRole('button', { name: 'Continue Conversation' }).click();
    await panel().locator('h1', { hasText: NEXT }).waitFor();
    assert.deepEqual(JSON.parse(await panel().locator('#input-json').inputValue()), { caller: 'Ada', topic: 'refund' }, 'the carried parameters');
    await text.fill('When will I get it?');
    await text.press('Control+Enter');

    const turns = panel().locator('ol.conversation li');
    await turns.nth(1).waitFor();
    assert.deepEqual(await turns.locator('.turn-sent').allInnerTexts(), ['Sent: I want a refund', 'Sent: When will I get it?']);
    assert.deepEqual(await turns.locator('.turn-prompt').allInnerTexts(), [`Answered by: "${FIRST}" (prompt ${first})`, `Answered by: "${NEXT}" (prompt ${next})`]);
    assert.match(await turns.nth(1).locator('.turn-answer').innerText(), /When will I get it\?$/);
    await panel().getByRole('button', { name: 'Save as Conversation Case' }).waitFor();
    // No state left: the prompts' editors and the panel closed (the prompts are deleted after), the focus back in
    // the ConvAI view, where the next test expects the workbench to be.
    await runCommand(page, 'View: Close All Editors');
    await panel().locator('h1').waitFor({ state: 'detached' });
    await treeRow(await openConvAiView(page), uiConnectionName, 1).click();
  });
});
