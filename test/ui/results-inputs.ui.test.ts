// The results panel's inputs form as a user fills it: Test Prompt opens it with the prompt's placeholders, an object
// that is not valid JSON is refused with the message and sends nothing, Run again runs the same inputs at once, and
// Edit and Run opens a run's inputs in the form again.
import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { resultsPanel } from './results-panel';
import { adminClient, testPromptRequests } from './service';
import { activeEditorHolds, choose, goToResource, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

// Tenant 2: the tree test counts tenant 1's prompts.
const TENANT = 2;
const PROMPT = 'Form probe';
const QUESTION = 'Where is my order?';
const PARAMS = { customer_name: 'Ada', order_id: 'A-7' };
const PARAMS_SHOWN = JSON.stringify(PARAMS, null, 2);
const INTEGRATION = 'Form action probe';

describe('the inputs form of the results panel', () => {
  let service: ServiceClient;
  let id = 0;
  let integrationId = 0;

  before(async () => {
    service = adminClient();
    id = (
      await service.create(
        kindById('prompt'),
        { name: PROMPT, user_prompt: 'Help {{customer_name}} with order {{order_id}}', ai_model: 'gpt-4o' },
        TENANT,
      )
    ).id as number;
    integrationId = (
      await service.create(
        kindById('integration'),
        { name: INTEGRATION, system: 'custom', technical_id: 'form-action-probe' },
        TENANT,
      )
    ).id as number;
  });
  after(async () => service.close());

  const panel = () => resultsPanel(workbench().page);
  const shownInput = (name: string) => panel().locator(`pre[aria-labelledby="field-${name}"]`);
  const historyRows = () => panel().locator('section[aria-labelledby="history-heading"] tbody tr');

  it('opens Test Prompt with the placeholders prefilled, refuses JSON that is not an object and sends a valid one', async () => {
    const { page } = workbench();
    // The tree shows once the connection is ready, which Go to Resource needs.
    await goToResource(page, uiConnectionName, PROMPT, id);
    await activeEditorHolds(page, `[data-uri$="/${id}.json"]`);
    await runCommand(page, 'ConvAI: Test Prompt');

    const json = panel().locator('#input-json');
    await json.waitFor();
    assert.equal(await json.inputValue(), '{\n  "customer_name": "",\n  "order_id": ""\n}', 'one placeholder a line');
    const sent = await testPromptRequests(id);
    await panel().locator('#input-text').fill(QUESTION);
    await json.fill('{"customer_name": "Ada", "order_id": }');
    const problem = panel().locator('#input-problem');
    await problem.filter({ hasText: /^prompt_params must be a JSON object: .+/ }).waitFor();
    await saveScreenshot(page, 'results-form');
    await json.press('Control+Enter');
    assert.equal(await json.getAttribute('aria-invalid'), 'true');
    await json.fill('["not", "an object"]');
    await problem.filter({ hasText: 'prompt_params must be a JSON object such as {"name": "value"}.' }).waitFor();
    await json.press('Control+Enter');

    await json.fill(PARAMS_SHOWN);
    assert.equal(await problem.textContent(), '', 'a valid object clears the message');
    await json.press('Control+Enter');
    // The service fills the placeholders from prompt_params and hands them back as next_prompt_params.
    await panel().locator('pre', { hasText: 'Help Ada with order A-7' }).waitFor();
    assert.equal(await shownInput('prompt_params').innerText(), PARAMS_SHOWN);
    assert.equal(await panel().locator('pre[aria-labelledby="field-next_prompt_params"]').innerText(), PARAMS_SHOWN);
    assert.equal(await testPromptRequests(id), sent + 1, 'only the valid object was sent');
    assert.equal(await json.count(), 0, 'the form closed once answered');
    assert.equal(await panel().getByRole('status').count(), 1, 'one status line');
  });

  it('runs again with the same inputs at once, asking nothing', async () => {
    const { page } = workbench();
    const runs = await historyRows().count();
    const sent = await testPromptRequests(id);
    await panel().getByRole('button', { name: 'Run again' }).click();
    await historyRows().nth(runs).waitFor();
    const success = panel()
      .getByRole('status')
      .filter({ hasText: /^Succeeded/ });
    await success.waitFor();
    // The pass colour is too light for words on a light theme: they keep the text colour, a check mark carries it.
    // Runs in the page, whose DOM types this project's tsconfig does not hold.
    const colours = await success.evaluate((element) => {
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown, pseudo?: string): { color: string; content: string } }
      ).getComputedStyle;
      const body = (element as unknown as { ownerDocument: { body: unknown } }).ownerDocument.body;
      const mark = style(element, '::before');
      return {
        words: style(element).color,
        text: style(body).color,
        mark: { color: mark.color, content: mark.content },
      };
    });
    assert.equal(colours.words, colours.text, 'Succeeded in the text colour');
    assert.match(colours.mark.content, /\u2713/, 'a check mark before it');
    assert.notEqual(colours.mark.color, colours.text, 'the check mark in the pass colour');
    assert.equal(await testPromptRequests(id), sent + 1, 'one more run');
    assert.equal(await panel().locator('form').count(), 0, 'no form');
    assert.equal(await page.locator('.quick-input-widget').isVisible(), false, 'no quick input');
    assert.equal(await shownInput('prompt_text').innerText(), QUESTION);
    assert.equal(await shownInput('prompt_params').innerText(), PARAMS_SHOWN);
    assert.deepEqual(
      await historyRows().locator('td.preview:nth-child(4)').allInnerTexts(),
      Array(runs + 1).fill(QUESTION),
    );
  });

  it("opens a run's inputs with Edit and Run: Escape runs nothing, Ctrl+Enter runs them as edited", async () => {
    const runs = await historyRows().count();
    const sent = await testPromptRequests(id);
    await panel().getByRole('button', { name: 'Edit and Run' }).click();
    const text = panel().locator('#input-text');
    await text.waitFor();
    assert.equal(await text.inputValue(), QUESTION);
    assert.equal(await panel().locator('#input-json').inputValue(), PARAMS_SHOWN);
    await text.press('Escape');
    await text.waitFor({ state: 'detached' });

    await panel().getByRole('button', { name: 'Edit and Run' }).click();
    await text.fill('Is A-7 shipped?');
    await text.press('Control+Enter');
    await panel().locator('pre', { hasText: 'Echo (gpt-4o): Is A-7 shipped?' }).waitFor();
    assert.equal(await shownInput('prompt_params').innerText(), PARAMS_SHOWN);
    assert.equal(await historyRows().count(), runs + 1, 'one run: the cancelled form ran nothing');
    assert.equal(await testPromptRequests(id), sent + 1);
  });

  it("compares two ticked runs' responses in a diff, the older on the left", async () => {
    const { page } = workbench();
    const pick = (text: string) => historyRows().filter({ hasText: text }).first().locator('input[data-role="pick"]');
    await pick('Is A-7 shipped?').check();
    await pick(QUESTION).check();
    await panel().getByRole('button', { name: 'Compare selected' }).click();
    const side = (name: 'original' | 'modified', text: string) =>
      page.locator(`.monaco-diff-editor .editor.${name} .view-lines`, { hasText: text });
    // The documents are read from the run history when the diff asks for them.
    await side('original', `Echo (gpt-4o): ${QUESTION}`).waitFor();
    await side('modified', 'Echo (gpt-4o): Is A-7 shipped?').waitFor();
    // Closed, and the focus put in the ConvAI view, so that the next test finds the workbench as the ones before it
    // left it: with the focus left in the panel beneath the closed diff, F1 opened no command palette. (The prompt's
    // tab is no place to click: the diff may have replaced it, as a preview.)
    await runCommand(page, 'View: Close Editor');
    await side('modified', 'Echo (gpt-4o): Is A-7 shipped?').waitFor({ state: 'detached' });
    await treeRow(await openConvAiView(page), uiConnectionName, 1).click();
  });

  it('asks Execute Action in the same form: the action in one line (Enter runs), its params as JSON', async () => {
    const { page } = workbench();
    await runCommand(page, 'ConvAI: Go to Resource…');
    await choose(page, INTEGRATION);
    await page.locator(`.tabs-container .tab.active[data-resource-name="${integrationId}.json"]`).waitFor();
    // A prompt may have the same id: the path says which kind is open.
    await page.locator('.editor-group-container.active .breadcrumbs-control', { hasText: 'integrations' }).waitFor();
    await runCommand(page, 'ConvAI: Execute Action');
    const action = panel().locator('input#input-text');
    await action.waitFor();
    await panel().locator('#input-json').fill('{\n  "order": { "id": "A-7" }\n}');
    await action.fill('echo');
    await action.press('Enter');
    // The local service's echo action answers with the params it was sent.
    await panel().locator('pre[aria-labelledby="field-result"]', { hasText: '{"order":{"id":"A-7"}}' }).waitFor();
    assert.equal(await shownInput('action').innerText(), 'echo');
  });
});
