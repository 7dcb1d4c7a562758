// The variant lab inside VS Code against the local service: a suite's case on the saved prompt and on two variants
// (one read from a file beside the suite), the figures `convai test --json` gives once the panel drew them, every
// copy deleted and no live prompt written; Apply Variant leaves the prompt's document dirty and the service as it was.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isTrialCopy } from '../../src/core/trials/trial-names';
import type { VariantReport } from '../../src/core/variants/variant-report';
import {
  addConnection,
  admin,
  clearRequests,
  documentUri,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
  revertAll,
  writeSuite,
} from './support';

const CONNECTION = 'variant-lab';
const TRIAGE = 2;
const REPEAT = 6;
const WORDS = 'hello from the variant';

const copiesLeft = async (): Promise<number> =>
  (await admin.list(kind('ai_prompts'), 1, { trialCopies: true })).filter(isTrialCopy).length;

/** A suite whose one case passes only where the prompt's system text dictates WORDS: the file variant's. */
async function labSuite(): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run in a workspace');
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(folder.uri, 'variant-lab-texts', 'says-words.md'),
    Buffer.from(`Say exactly: ${WORDS}\n`),
  );
  return writeSuite(CONNECTION, 'variant-lab', {
    prompt: 'Order Triage',
    variants: [
      { name: 'says the words', file: 'variant-lab-texts/says-words.md', field: 'system' },
      { name: 'described', fields: { description: 'The same prompt, described otherwise.' } },
    ],
    cases: [
      { name: 'answers the words', prompt_text: 'hi', repeat: REPEAT, expect: { response: { contains: WORDS } } },
    ],
  });
}

describe('the variant lab', () => {
  before(async () => {
    await revertAll();
    await addConnection(CONNECTION);
  });
  after(() => removeConnection(CONNECTION));
  afterEach(() => revertAll());

  it('returns each column\'s figures once drawn: the variant that says the words "better", the other "same"', async () => {
    const live = await admin.get(kind('ai_prompts'), TRIAGE, 1);
    const suite = await labSuite();
    await clearRequests();
    const { variants } = await vscode.commands.executeCommand<{ variants: VariantReport[] }>('convai.showVariantLab', {
      uri: suite.toString(),
    });
    const drawn = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.variantLab'));
    assert.ok(drawn, 'the lab is open');
    assert.deepEqual(
      variants.map((v) => [v.name, v.runs, v.passes, v.errors, v.vsBase?.change]),
      [
        ['base', REPEAT, 0, 0, undefined],
        ['says the words', REPEAT, REPEAT, 0, 'better'],
        ['described', REPEAT, 0, 0, 'same'],
      ],
    );
    const [base, better, same] = variants;
    assert.ok((better?.vsBase?.p ?? 1) < 0.05, `p = ${better?.vsBase?.p}`);
    assert.equal(same?.vsBase?.p, 1);
    // The contract's shape, as --json gives it: every column and every cell with its figures.
    for (const column of variants) {
      assert.deepEqual(
        Object.keys(column).sort(),
        [
          'cases',
          'errors',
          'interval',
          'latency',
          'name',
          'passRate',
          'passes',
          'runs',
          ...(column.vsBase ? ['vsBase'] : []),
        ].sort(),
      );
      assert.deepEqual(
        column.cases.map((c) => Object.keys(c).sort()),
        [['errors', 'interval', 'latency', 'name', 'passRate', 'passes', 'runs', 'verdict']],
      );
    }
    assert.deepEqual(
      variants.map((v) => v.cases[0]?.verdict),
      ['fail', 'pass', 'fail'],
    );
    assert.equal(better?.passRate, 1);
    assert.ok((base?.interval[1] ?? 1) < (better?.interval[0] ?? 0), 'the intervals do not overlap');
    // Nothing live was written: the only writes were each copy's create and delete.
    const writes = (await receivedRequests()).filter((r) => r.method !== 'GET' && !r.path.endsWith('/test_prompt'));
    assert.deepEqual(writes.map((r) => r.method).sort(), ['DELETE', 'DELETE', 'POST', 'POST']);
    assert.ok(
      writes.every((r) => !r.path.endsWith(`/ai_prompts/${TRIAGE}`)),
      JSON.stringify(writes.map((r) => r.path)),
    );
    assert.deepEqual(await admin.get(kind('ai_prompts'), TRIAGE, 1), live, 'the live prompt is unchanged');
    assert.equal(await copiesLeft(), 0);
  });

  it("writes a variant into the prompt's document as unsaved edits, sending nothing but reads", async () => {
    const live = await admin.get(kind('ai_prompts'), TRIAGE, 1);
    const suite = await labSuite();
    await clearRequests();
    const { document } = await vscode.commands.executeCommand<{ document: string }>('convai.applyVariant', {
      uri: suite.toString(),
      variant: 'says the words',
    });
    const expected = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: 1,
      segment: 'ai_prompts',
      id: TRIAGE,
    });
    assert.equal(document, expected.toString());
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === document);
    assert.ok(open?.isDirty, 'the document has unsaved edits');
    const edited = JSON.parse(open.getText()) as Record<string, unknown>;
    assert.equal(edited.system, `Say exactly: ${WORDS}`);
    assert.deepEqual({ ...edited, system: live.system }, live, 'every other field is kept');
    assert.deepEqual(
      (await receivedRequests()).filter((r) => r.method !== 'GET'),
      [],
    );
    assert.deepEqual(await admin.get(kind('ai_prompts'), TRIAGE, 1), live);
  });

  it('refuses a suite without variants, and a variant the suite does not name, saying what to do', async () => {
    const plain = await writeSuite(CONNECTION, 'variant-lab-none', {
      prompt: 'Order Triage',
      cases: [{ name: 'any', prompt_text: 'hi', expect: { response: { contains: 'Echo' } } }],
    });
    const none = await rejection(vscode.commands.executeCommand('convai.showVariantLab', { uri: plain.toString() }));
    assert.match(none.message, /variant-lab-none\.prompttest\.json has no "variants" to compare: add a list/);
    const suite = await labSuite();
    const unknown = await rejection(
      vscode.commands.executeCommand('convai.applyVariant', { uri: suite.toString(), variant: 'louder' }),
    );
    assert.match(unknown.message, /has no variant named "louder"; its variants are "says the words", "described"\./);
  });
});
