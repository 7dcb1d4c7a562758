/**
 * The user guide's suites and judge files, taken from its JSON blocks as a reader copies them, run by the command-line
 * tool against the sample data `npm start` serves: each runs as written and passes, so an example never names a
 * prompt the sample has not.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from './cli-process';
import { startContract, type ContractContext } from './setup';

const GUIDE = path.resolve(__dirname, '../../../docs/user-guide.md');

interface Example {
  file: string;
  text: string;
}

/** Every ```json block of the guide that is a whole suite (`cases`) or judge file (`labels`), in the guide's order. */
function examplesOf(guide: string): Example[] {
  const blocks = [...guide.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.flatMap((text, index) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    if ('cases' in value) return [{ file: `example-${index + 1}.prompttest.json`, text }];
    if ('labels' in value) return [{ file: `example-${index + 1}.judgetest.json`, text }];
    return [];
  });
}

interface JsonReport {
  suites: Array<{ file: string; cases: Array<{ name: string; verdict: string; messages: string[] }> }>;
}

describe("contract: the user guide's suite examples", () => {
  let ctx: ContractContext;
  let work: string;
  let examples: Example[];

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-docs-examples-'));
    examples = examplesOf(await readFile(GUIDE, 'utf8'));
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('finds the suites and the judge file the guide shows', () => {
    // The guide's suite, its conversation, its simulated call, its variants and its judge file.
    assert.deepEqual(
      examples.map(({ file }) => file.replace(/^example-\d+/, '')),
      ['.prompttest.json', '.prompttest.json', '.prompttest.json', '.prompttest.json', '.judgetest.json'],
    );
  });

  it('runs each as written against the sample data, and each passes', async () => {
    for (const { file, text } of examples) {
      await writeFile(path.join(work, file), text);
      const result = await runCli(['test', '--url', ctx.service.url, '--json', file], work, {
        CONVAI_TOKEN: ctx.service.adminToken,
      });
      assert.equal(result.code, 0, `${file}:\n${text}\n${result.stdout}${result.stderr}`);
      const report = JSON.parse(result.stdout) as JsonReport;
      for (const suite of report.suites)
        for (const { name, verdict, messages } of suite.cases)
          assert.equal(verdict, 'pass', `${file}, case "${name}": ${messages.join('; ')}`);
    }
  });
});
