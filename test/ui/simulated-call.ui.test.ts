// A simulated call in VS Code's Testing view, as a user sees it: its criteria listed under the case, each with its
// verdict, and the failed case's link opening the call's transcript with the judge's reasoning beside its verdict.
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

describe('a simulated call in the Testing view', () => {
  const file = (): string => path.join(workbench().workspace, FILE);
  const made: number[] = [];
  let client: ServiceClient;

  before(async () => {
    client = adminClient();
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
    const suite = {
      target: { connection: uiConnectionName, tenantId: TENANT },
      prompt: 'Support Greeting',
      cases: [
        {
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
        },
      ],
    };
    fs.writeFileSync(file(), `${JSON.stringify(suite, null, 2)}\n`);
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
