import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { prepareSuite } from '../../src/core/prompt-tests/target';
import { TrialJournal } from '../../src/core/trials/trial-journal';
import { runVariantMatrix } from '../../src/core/variants/variant-run';
import type { Variant } from '../../src/core/variants/variant-spec';
import { startService, type RunningService } from '../service/server';
import type { Fault } from '../service/faults';
import { matrixBound, requestBound } from '../../src/core/prompt-tests/cost';
import { differencePValue } from '../../src/core/prompt-tests/statistics';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { CaseResult, CaseRun, SuiteResult } from '../../src/core/prompt-tests/types';
import { caseResult } from '../../src/core/prompt-tests/verdict';
import { readVariants } from '../../src/core/variants/variant-files';
import { variantReports, vsBase } from '../../src/core/variants/variant-report';
import { lineColumnText } from '../../src/core/text';

const PROMPT = kindById('prompt');
const CASES = [{ name: 'hello', prompt_text: 'Hi', expect: { response: { contains: 'Hi' } } }];

function problemsOf(variants: unknown): string[] {
  const text = JSON.stringify({ prompt: 'Greeting', variants, cases: CASES }, null, 2);
  const { suite, problems } = parseSuite(text);
  assert.equal(suite, undefined, 'a suite with a bad variant does not run');
  return problems.map((p) => `${lineColumnText(text, p.range.offset)} ${p.path.join('.')}: ${p.message}`);
}

describe('variants: what a suite may write', () => {
  it('reads named fields and files, keeping where each file is named', () => {
    const text = JSON.stringify({
      prompt: 'Greeting',
      variants: [
        { name: 'shorter', fields: { system: 'Greet in one sentence.' } },
        { name: 'cooler', fields: { temparature: 0.2 } },
        { name: 'from file', file: 'variants/greeting-b.md', field: 'system' },
      ],
      cases: CASES,
    });
    const { suite, problems } = parseSuite(text);
    assert.deepEqual(problems, []);
    const variants = (suite as Suite).variants ?? [];
    assert.deepEqual(
      variants.map((v) => [v.name, v.fields, v.file, v.field]),
      [
        ['shorter', { system: 'Greet in one sentence.' }, undefined, undefined],
        ['cooler', { temparature: 0.2 }, undefined, undefined],
        ['from file', undefined, 'variants/greeting-b.md', 'system'],
      ],
    );
    const fileRange = variants[2]?.fileRange;
    assert.equal(
      text.slice(fileRange?.offset, (fileRange?.offset ?? 0) + (fileRange?.length ?? 0)),
      '"variants/greeting-b.md"',
    );
  });

  it('names an unknown field at its key with the closest prompt field', () => {
    const [problem, ...rest] = problemsOf([{ name: 'typo', fields: { sytem: 'Be brief.' } }]);
    assert.deepEqual(rest, []);
    assert.match(problem ?? '', /^7:9 variants\.0\.fields\.sytem: sytem: unknown field; did you mean "system"\?/);
  });

  it('names a wrong type at the value, with what the field takes', () => {
    const [problem] = problemsOf([{ name: 'warm', fields: { temparature: 'hot' } }]);
    assert.match(
      problem ?? '',
      /variants\.0\.fields\.temparature: temparature: must be a number or null, not a string/,
    );
  });

  it('refuses what a copy cannot change, a base or twice-used name, both or neither source, and a file without its field', () => {
    const problems = problemsOf([
      { name: 'renamed', fields: { name: 'Other' } },
      { name: 'base', fields: { system: 'x' } },
      { name: 'twice', fields: { system: 'x' } },
      { name: 'twice', fields: { system: 'y' } },
      { name: 'both', fields: { system: 'x' }, file: 'a.md', field: 'system' },
      { name: 'neither' },
      { name: 'no field', file: 'a.md' },
      { name: 'bad field', file: 'a.md', field: 'temparature' },
      { name: 'misspelt', feilds: { system: 'x' } },
    ]).map((p) => p.replace(/^\d+:\d+ /, ''));
    const expected = [
      /^variants\.0\.fields\.name: a variant cannot change the prompt's name/,
      /^variants\.1\.name: "base" names the prompt as it is/,
      /^variants\.3\.name: another variant is named "twice"/,
      /^variants\.4\.file: a variant has "fields" or "file" and "field", not both/,
      /^variants\.5: a variant needs "fields" .* or "file" and "field"/,
      /^variants\.6: a variant read from a file names the field it holds/,
      /^variants\.7\.field: field must be the prompt text the file holds: one of description, user_prompt, system/,
      /^variants\.8\.feilds: "feilds" is no field of a variant; did you mean "fields"\?/,
    ];
    for (const pattern of expected)
      assert.ok(
        problems.some((p) => pattern.test(p)),
        `${String(pattern)} not among:\n${problems.join('\n')}`,
      );
  });

  it('refuses variants on an integration suite, and an empty list', () => {
    const text = JSON.stringify({ integration: 'CRM', variants: [{ name: 'a', fields: { system: 'x' } }], cases: [] });
    assert.ok(parseSuite(text).problems.some((p) => p.message.startsWith('variants are versions of a prompt')));
    assert.match(problemsOf([])[0] ?? '', /variants must be a list of at least one variant/);
  });

  it("reads a file variant's text less one final newline, and names a file that cannot be read at its place", async () => {
    const { suite } = parseSuite(
      JSON.stringify({
        prompt: 'Greeting',
        variants: [
          { name: 'a', file: 'a.md', field: 'system' },
          { name: 'gone', file: 'missing.md', field: 'system' },
          { name: 'b', fields: { temparature: 0.1 } },
        ],
        cases: CASES,
      }),
    );
    const specs = (suite as Suite).variants ?? [];
    const read = async (file: string): Promise<string> => {
      if (file === 'a.md') return 'Say exactly: Hello.\n';
      throw new Error(`ENOENT: no such file, open '${file}'`);
    };
    const { variants, problems } = await readVariants(specs, read);
    assert.deepEqual(variants, [
      { name: 'a', fields: { system: 'Say exactly: Hello.' } },
      { name: 'b', fields: { temparature: 0.1 } },
    ]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /^variant "gone": the file "missing.md" could not be read \(ENOENT/);
    assert.equal(problems[0]?.range.offset, specs[1]?.fileRange?.offset);
  });
});

describe('variants: figures', () => {
  it("Fisher's exact test, two-sided, against values worked by hand", () => {
    // 3/3 against 0/3: the observed table and its mirror are the only ones as unlikely, each 1/20.
    assert.ok(Math.abs(differencePValue({ passes: 3, runs: 3 }, { passes: 0, runs: 3 }) - 0.1) < 1e-12);
    // 10/10 against 3/10: the tables with 10 or 3 of the 13 passes in the first, 2 · 286/184756 = 0.003096…
    assert.ok(Math.abs(differencePValue({ passes: 10, runs: 10 }, { passes: 3, runs: 10 }) - 0.0030959752) < 1e-9);
    // The same tallies, in either order, are no difference at all.
    assert.equal(differencePValue({ passes: 4, runs: 8 }, { passes: 4, runs: 8 }), 1);
    assert.ok(
      Math.abs(
        differencePValue({ passes: 7, runs: 9 }, { passes: 2, runs: 8 }) -
          differencePValue({ passes: 2, runs: 8 }, { passes: 7, runs: 9 }),
      ) < 1e-12,
    );
    // 7/9 against 2/8: the tables with 1, 2, 7, 8 or 9 of the 9 passes in the first, 1378/24310 = 0.056684…
    assert.ok(Math.abs(differencePValue({ passes: 7, runs: 9 }, { passes: 2, runs: 8 }) - 0.056684492) < 1e-9);
    assert.equal(differencePValue({ passes: 0, runs: 0 }, { passes: 3, runs: 3 }), 1);
  });

  it('calls a variant better or worse only below p 0.05', () => {
    assert.equal(vsBase({ passes: 3, runs: 10 }, { passes: 10, runs: 10 }).change, 'better');
    assert.equal(vsBase({ passes: 10, runs: 10 }, { passes: 3, runs: 10 }).change, 'worse');
    assert.equal(vsBase({ passes: 0, runs: 3 }, { passes: 3, runs: 3 }).change, 'same');
  });

  const run = (passed: boolean, durationMs: number, error?: string): CaseRun => ({
    passed,
    durationMs,
    failures: [],
    ...(error ? { error } : {}),
  });
  const result = (cases: Array<[string, CaseRun[]]>): SuiteResult => {
    const judged: CaseResult[] = cases.map(([name, runs]) =>
      caseResult({ name, expect: {}, repeat: runs.length, minPassRate: 1, range: { offset: 0, length: 0 } }, runs),
    );
    return {
      passed: judged.filter((c) => c.passed).length,
      failed: judged.filter((c) => !c.passed).length,
      skipped: 0,
      cases: judged,
    };
  };

  it('pools passes over cases, keeps errored runs out of the rate, and reports each cell', () => {
    const base = result([
      ['a', [run(true, 100), run(false, 200), run(false, 300)]],
      ['b', [run(true, 100), run(false, 100, 'HTTP 500'), run(false, 400)]],
    ]);
    const better = result([
      ['a', [run(true, 50), run(true, 60), run(true, 70)]],
      ['b', [run(true, 80), run(true, 90), run(true, 100)]],
    ]);
    const [first, second] = variantReports(base, [{ name: 'shorter', result: better }]);
    assert.deepEqual(
      { name: first?.name, runs: first?.runs, passes: first?.passes, errors: first?.errors, vsBase: first?.vsBase },
      { name: 'base', runs: 5, passes: 2, errors: 1, vsBase: undefined },
    );
    assert.equal(first?.passRate, 0.4);
    assert.deepEqual(first?.latency, { p50: 200, p95: 400 });
    assert.deepEqual(
      first?.cases.map((c) => [c.name, c.runs, c.passes, c.errors, c.verdict]),
      [
        ['a', 3, 1, 0, 'fail'],
        ['b', 2, 1, 1, 'error'],
      ],
    );
    assert.equal(second?.name, 'shorter');
    assert.equal(second?.passes, 6);
    assert.deepEqual(second?.latency, { p50: 70, p95: 100 });
    assert.equal(second?.vsBase?.change, 'same', '6/6 against 2/5 is p = 0.06');
    assert.ok(
      Math.abs((second?.vsBase?.p ?? 0) - differencePValue({ passes: 6, runs: 6 }, { passes: 2, runs: 5 })) < 1e-12,
    );
    assert.ok(second && second.interval[0] > 0.5 && second.interval[1] === 1);
  });

  it("bounds a matrix's requests: every case on the base and each variant, and each copy's create and delete", () => {
    const { suite } = parseSuite(
      JSON.stringify({
        prompt: 'Greeting',
        variants: [
          { name: 'a', fields: { system: 'x' } },
          { name: 'b', fields: { system: 'y' } },
        ],
        cases: [
          { name: 'one', prompt_text: 'Hi', expect: { response: 'x' }, repeat: 3 },
          {
            name: 'two',
            turns: [
              { prompt_text: 'a', expect: {} },
              { prompt_text: 'b', expect: {} },
            ],
          },
        ],
      }),
    );
    assert.equal(requestBound(suite as Suite), 5);
    assert.equal(matrixBound(suite as Suite), 5 * 3 + 2 * 2);
    assert.equal(matrixBound(suite as Suite, new Set(['two'])), 2 * 3 + 2 * 2);
    assert.equal(matrixBound({ cases: (suite as Suite).cases }), 5);
  });
});

describe('variants: the matrix against the local service', () => {
  let service: RunningService;
  let client: ServiceClient;
  let dir: string;
  const start = async (faults: Fault[] = []): Promise<void> => {
    service = await startService({ adminToken: 'variant-admin', faults });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'convai-variants-'));
    await start();
  });
  afterEach(async () => {
    await client.close();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });
  const copies = async (): Promise<string[]> =>
    (await client.list(PROMPT, 1, { trialCopies: true }))
      .map((p) => String(p.name))
      .filter((n) => n.startsWith('[trial '));
  const matrix = async (variants: Variant[]) => {
    const { suite } = parseSuite(
      JSON.stringify({
        prompt: 'Order Triage',
        cases: [{ name: 'says', prompt_text: 'Where?', expect: { response: 'On its way.' }, repeat: 2 }],
      }),
    );
    const target = await prepareSuite(client, suite as Suite, 1, 'the local service');
    return runVariantMatrix({
      client,
      suite: suite as Suite,
      target,
      variants,
      journal: (tag) => new TrialJournal(dir, service.url, 1, tag),
    });
  };

  it('runs each column through its own copy, never writes the live prompt, and leaves no copy or journal', async () => {
    const live = await client.get(PROMPT, 2, 1);
    const run = await matrix([
      { name: 'says', fields: { system: 'Say exactly: On its way.' } },
      { name: 'other', fields: { system: 'Say exactly: Lost.' } },
    ]);
    assert.deepEqual(
      [run.base, ...run.variants.map((v) => v.result)].map((r) => r.cases[0]?.passes),
      [0, 2, 0],
    );
    assert.ok(run.trials.every((t) => t.deleted && t.copies.length === 1));
    assert.notEqual(run.trials[0]?.tag, run.trials[1]?.tag, 'a tag, and a journal, per copy');
    assert.deepEqual(await copies(), []);
    assert.deepEqual(await readdir(dir), []);
    assert.deepEqual(await client.get(PROMPT, 2, 1), live);
    const written = service.requests
      .list()
      .filter((r) => r.method !== 'GET' && /^\/api\/v1\/ai_prompts\/2(\/(?!test_prompt$)|$)/.test(r.path));
    assert.deepEqual(written, [], 'the live prompt is only tested');
  });
});
