// A simulated call in VS Code's Testing view, as a user sees it: its criteria listed under the case, each with its
// verdict, and the call's transcript, with the judge's reasoning beside its verdict, opened from the result itself.
// The sample tenant's Support Greeting answers; the caller's line and the judge's verdict are scripted with the
// local service's fault queue, matched by each prompt's test_prompt path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { request } from 'undici';
import { kindById } from '../../src/core/resources';
import type { ServiceClient } from '../../src/core/client';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient } from './service';
import { expandedTestRow, runCommand, runSuiteToFailure } from './tree-view';
import { workbench } from './workbench';

const FILE = 'refund-call.prompttest.json';
const CASE = 'annoyed caller learns the refund time';
const TENANT = 1;

/** The tenant's prompt of that name, created when the sample data has none; `made` collects what was created. */
async function promptNamed(client: ServiceClient, name: string, made: number[]): Promise<number> {
  const found = (await client.list(kindById('prompt'), TENANT)).find((p) => p.name === name);
  if (found) return found.id as number;
  const id = (await client.create(kindById('prompt'), { name, user_prompt: name }, TENANT)).id as number;
  made.push(id);
  return id;
}

/** The failing call's caller line and the judge's verdict, queued for the next run (each answer is taken once). */
async function scriptFailingCall(client: ServiceClient, made: number[]): Promise<void> {
  const caller = await promptNamed(client, 'Caller: Broken Kettle', made);
  const judge = await promptNamed(client, 'Call Judge', made);
  const answer = (id: number, response: string): object => ({
    match: `/ai_prompts/${id}/test_prompt`,
    status: 200,
    body: JSON.stringify({ response }),
  });
  const { service } = workbench();
  const queued = await request(`${service.url}/__test/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      queue: [
        answer(caller, 'It broke after a week. How long until I get my money back?'),
        answer(
          judge,
          JSON.stringify({
            reasoning: 'The assistant explains the refund but never offers a replacement kettle.',
            verdict: 'fail',
            quote: 'Refunds reach your original payment method within 5 business days.',
          }),
        ),
      ],
    }),
  });
  assert.equal(queued.statusCode, 200, await queued.body.text());
}

/** A call judged on a replacement it is never offered, so it fails. */
const failingCall = {
  name: CASE,
  simulate: {
    caller: 'Caller: Broken Kettle',
    persona: 'Your kettle broke after a week. You want your money back.',
    opening: 'Hello? I need to talk about my order.',
    maxTurns: 2,
  },
  criteria: [
    {
      name: 'offers a replacement',
      judge: 'Call Judge',
      rubric: 'The assistant offers to replace the broken kettle.',
    },
    { name: 'reaches triage', expect: { prompt: 'Order Triage' } },
  ],
};

/** Writes a suite of these calls against the sample tenant's Support Greeting into the workspace; resolves with its path. */
function writeCallSuite(file: string, cases: object[]): string {
  const suite = { target: { connection: uiConnectionName, tenantId: TENANT }, prompt: 'Support Greeting', cases };
  const where = path.join(workbench().workspace, file);
  fs.writeFileSync(where, `${JSON.stringify(suite, null, 2)}\n`);
  return where;
}

describe('a simulated call in the Testing view', () => {
  const file = (): string => path.join(workbench().workspace, FILE);
  const made: number[] = [];
  let client: ServiceClient;

  before(async () => {
    client = adminClient();
    await scriptFailingCall(client, made);
    writeCallSuite(FILE, [failingCall]);
  });

  after(async () => {
    const { page } = workbench();
    fs.rmSync(file(), { force: true });
    for (const id of made) await client.delete(kindById('prompt'), id, TENANT);
    await client.close();
    await page.locator('.test-explorer .monaco-list-row', { hasText: FILE }).waitFor({ state: 'detached' });
  });

  it("shows each criterion's verdict under the case and opens the failed call's transcript", async () => {
    const { page } = workbench();
    const explorer = await runSuiteToFailure(page, FILE);
    const caseRow = explorer.locator('.monaco-list-row', { hasText: CASE });
    await expandedTestRow(caseRow);
    const row = (label: string): Locator => explorer.locator('.monaco-list-row', { hasText: label });
    await row('reaches triage').locator('.codicon-testing-passed-icon').waitFor();
    await row('offers a replacement').locator('.codicon-testing-failed-icon').waitFor();

    // The case's messages in Test Results: the picked message shows beside them, its link trusted to open the transcript.
    await caseRow.dblclick();
    await page.locator('.monaco-list-row', { hasText: "Open the call's transcript" }).first().click();
    await page.locator('a', { hasText: "Open the call's transcript" }).first().click();
    const editor = page.locator('.editor-instance .view-lines');
    await editor.getByText('[fail] offers a replacement').waitFor();
    await editor.getByText('reasoning: The assistant explains the refund').waitFor();
    await page.locator('.editor-actions .action-label[aria-label^="Label This Call"]').waitFor();
    await saveScreenshot(page, 'simulated-call', { readme: true });
    await runCommand(page, 'View: Close All Editors');
  });
});

describe("a call's transcript, one step from its result", () => {
  const RESULTS_FILE = 'call-results.prompttest.json';
  const PASSING = 'caller is greeted';
  const made: number[] = [];
  let client: ServiceClient;
  let suiteFile = '';

  before(async () => {
    client = adminClient();
    await scriptFailingCall(client, made);
    // One answer, from the greeting: the caller is never asked, so this call takes nothing of the scripted answers.
    const passingCall = {
      name: PASSING,
      simulate: { caller: 'Caller: Broken Kettle', persona: 'You want to be greeted.', opening: 'Hello?', maxTurns: 1 },
      criteria: [{ name: 'answered by the greeting', expect: { prompt: 'Support Greeting' } }],
    };
    suiteFile = writeCallSuite(RESULTS_FILE, [failingCall, passingCall]);
  });

  after(async () => {
    const { page } = workbench();
    fs.rmSync(suiteFile, { force: true });
    for (const id of made) await client.delete(kindById('prompt'), id, TENANT);
    await client.close();
    await page.locator('.test-explorer .monaco-list-row', { hasText: RESULTS_FILE }).waitFor({ state: 'detached' });
  });

  it("opens the call's transcript by a double-click on the failed result, by Open Transcript on its message, and from a passed call's result", async () => {
    const { page } = workbench();
    const explorer = await runSuiteToFailure(page, RESULTS_FILE);
    await expandedTestRow(explorer.locator('.monaco-list-row', { hasText: CASE }));
    const failed = explorer.locator('.monaco-list-row', { hasText: 'offers a replacement' });
    await failed.locator('.codicon-testing-failed-icon').waitFor();
    const transcriptTab = (name: string): Locator =>
      page.locator(`.tabs-container .tab.active[data-resource-name="Call of ${name}.txt"]`);
    const editor = page.locator('.editor-group-container.active .monaco-editor[data-uri^="convai-call:"] .view-lines');

    // A double-click on the failed criterion lands on the call it failed in, not on the criterion's line in the suite.
    await failed.dblclick();
    await transcriptTab(CASE).waitFor();
    await editor.getByText('caller: Hello? I need to talk about my order.').waitFor();
    await editor.getByText('caller: It broke after a week. How long until I get my money back?').waitFor();
    await editor.getByText('assistant (Support Greeting): ').first().waitFor();
    await editor.getByText('[fail] offers a replacement').waitFor();
    await saveScreenshot(page, 'result-transcript');
    await runCommand(page, 'View: Close All Editors');

    // In Test Results (the run showed it), the failed call's message carries Open Transcript over its text.
    const results = page.locator('.part.panel .test-output-peek-tree');
    await results.locator('.monaco-list-row', { hasText: 'The assistant explains the refund' }).first().click();
    await page.locator('.floating-click-widget', { hasText: 'Open Transcript' }).click();
    await transcriptTab(CASE).waitFor();
    await editor.getByText('The call, which failed.').waitFor();
    await runCommand(page, 'View: Close All Editors');

    // A passed call keeps its transcript: its result's row offers it.
    const passed = results.locator(`.monaco-list-row[aria-label="${PASSING}"]`);
    await passed.hover();
    await passed.locator('.action-label[aria-label="Open Transcript"]').click();
    await transcriptTab(PASSING).waitFor();
    await editor.getByText('The call, which passed.').waitFor();
    await editor.getByText('[pass] answered by the greeting (checked on the call)').waitFor();
    await runCommand(page, 'View: Close All Editors');
  });
});
