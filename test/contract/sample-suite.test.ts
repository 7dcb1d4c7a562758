/**
 * The suite `npm start` writes for step 4 of the README's tour, run by the
 * command-line tool against the local service, as the tour runs it in VS
 * Code: as written every case passes; after the tour's edit the tour case
 * fails with the expected and the actual text.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SAMPLE_SUITE_FILE, sampleSuiteText, TOUR_CASE, TOUR_EDIT } from '../service/sample-suite';
import { runCli } from './cli-process';
import { startContract, type ContractContext } from './setup';

interface JsonReport {
  passed: number;
  failed: number;
  suites: Array<{ cases: Array<{ name: string; passed: boolean; verdict: string; runs: number; messages: string[] }> }>;
}

describe("contract: the sample suite of the README's tour", () => {
  let ctx: ContractContext;
  let work: string;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-sample-suite-'));
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  async function runSample(text: string): Promise<{ code: number | null; report: JsonReport }> {
    await writeFile(path.join(work, SAMPLE_SUITE_FILE), text);
    const result = await runCli(['test', '--url', ctx.service.url, '--json', SAMPLE_SUITE_FILE], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    return { code: result.code, report: JSON.parse(result.stdout) as JsonReport };
  }

  it('passes as npm start writes it, its repeated case weighed over every run', async () => {
    const { code, report } = await runSample(sampleSuiteText('local'));
    assert.equal(code, 0, JSON.stringify(report));
    const cases = report.suites[0]?.cases ?? [];
    assert.deepEqual(
      cases.map(({ name, verdict }) => [name, verdict]),
      [
        [TOUR_CASE, 'pass'],
        ['answers briefly, to be read aloud', 'pass'],
      ],
    );
    assert.deepEqual(
      cases.map(({ runs }) => runs),
      [1, 5],
    );
  });

  it("fails the tour case after the tour's edit, with the expected and the actual text", async () => {
    const { code, report } = await runSample(sampleSuiteText('local').replace(TOUR_EDIT.from, TOUR_EDIT.to));
    assert.equal(code, 1);
    const failed = report.suites[0]?.cases.find((c) => c.name === TOUR_CASE);
    assert.equal(failed?.passed, false);
    assert.deepEqual(failed.messages, [
      `altered_prompt: is not equal to the expected value: expected Classify this message ${TOUR_EDIT.to} about order A-1042: Where is my order?, actual Classify this message ${TOUR_EDIT.from} about order A-1042: Where is my order?`,
    ]);
    assert.deepEqual([report.passed, report.failed], [1, 1]);
  });
});
