// Continue Conversation as a user does it in the results panel: a Test Prompt run whose answer names a next prompt
// offers it, the form asks the next text with the carried parameters, and the next prompt's run shows the turns in
// order. The local service routes an answer by its text through the prompt's settings (test/service/README.md).
import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { uiConnectionName } from '../harness/ui-workbench';
import { resultsPanel } from './results-panel';
import { adminClient } from './service';
import { activeEditorHolds, goToResource, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

// Tenant 2: the tree test counts tenant 1's prompts.
const TENANT = 2;
const FIRST = 'Conversation start probe';
const NEXT = 'Conversation refund probe';

const prompts = kindById('prompt');

/** A prompt of the test's own in TENANT; its id. */
async function createPrompt(service: ServiceClient, fields: JsonObject): Promise<number> {
  return (await service.create(prompts, fields, TENANT)).id as number;
}

describe('conversations in the results panel', () => {
  const ids = { first: 0, next: 0 };
  // Made once the workbench (and its service) is up, which is after the describe runs.
  let service: ServiceClient;
  before(async () => {
    service = adminClient();
    ids.next = await createPrompt(service, { name: NEXT });
    // "refund" in the text routes the answer to NEXT, carrying a parameter of its own.
    ids.first = await createPrompt(service, {
      name: FIRST,
      settings: JSON.stringify({ routes: [{ when: 'refund', next_prompt_id: ids.next, params: { topic: 'refund' } }] }),
    });
  });
  // The prompts stay, as the other tests' in TENANT do: their tabs stay open, and a deleted resource's tab would
  // show an error to the tests after.
  after(async () => service.close());

  const panel = () => resultsPanel(workbench().page);

  it('continues a run at the prompt its answer names, with the carried parameters, and shows the turns in order', async () => {
    const { page } = workbench();
    await goToResource(page, uiConnectionName, FIRST, ids.first);
    await activeEditorHolds(page, `[data-uri$="/${ids.first}.json"]`);
    await runCommand(page, 'ConvAI: Test Prompt');
    const text = panel().locator('#input-text');
    await text.waitFor();
    await text.fill('I want a refund');
    await panel().locator('#input-json').fill('{ "caller": "Ada" }');
    await text.press('Control+Enter');

    await panel().getByRole('button', { name: 'Continue Conversation' }).click();
    await panel().locator('h1', { hasText: NEXT }).waitFor();
    assert.deepEqual(
      JSON.parse(await panel().locator('#input-json').inputValue()),
      { caller: 'Ada', topic: 'refund' },
      'the carried parameters',
    );
    // The form says what it continues: the next prompt has no runs of its own yet, but the conversation has a turn.
    await panel()
      .getByRole('heading', { name: /^Continuing the conversation of .+, 1 turn$/ })
      .waitFor();
    assert.deepEqual(await panel().locator('#continued-heading + ol.conversation .turn-sent').allInnerTexts(), [
      'Sent: I want a refund',
    ]);
    assert.equal(await panel().getByText('No runs yet.').count(), 0);
    await text.fill('When will I get it?');
    await text.press('Control+Enter');

    const turns = panel().locator('section[aria-labelledby="run-heading"] ol.conversation li');
    await turns.nth(1).waitFor();
    assert.deepEqual(await turns.locator('.turn-sent').allInnerTexts(), [
      'Sent: I want a refund',
      'Sent: When will I get it?',
    ]);
    assert.deepEqual(await turns.locator('.turn-prompt').allInnerTexts(), [
      `Answered by: "${FIRST}" (prompt ${ids.first})`,
      `Answered by: "${NEXT}" (prompt ${ids.next})`,
    ]);
    assert.match(await turns.nth(1).locator('.turn-answer').innerText(), /When will I get it\?$/);
    await panel().getByRole('button', { name: 'Save as Conversation Case' }).waitFor();
    // The focus back in the ConvAI view, where the next test expects the workbench to be. (Closing every editor
    // instead left the palette without ConvAI: Test Prompt for the next test's prompt.)
    await treeRow(await openConvAiView(page), uiConnectionName, 1).click();
  });
});
