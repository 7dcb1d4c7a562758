import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../src/cli/command';
import { junitPath, type RunInputs } from '../../src/cli/report-path';

describe('the command-line tool: where test --junit may write', () => {
  let cwd = '';
  let inputs: RunInputs;
  const refused = async (value: string, says: RegExp): Promise<void> => {
    await assert.rejects(
      junitPath(value, inputs, cwd),
      (error: unknown) =>
        error instanceof UsageError && says.test(error.message) && error.message.includes(path.resolve(cwd, value)),
    );
  };

  before(() => {
    cwd = mkdtempSync(path.join(tmpdir(), 'convai-junit-path-'));
    mkdirSync(path.join(cwd, 'suites'));
    mkdirSync(path.join(cwd, 'tenant/ai_prompts'), { recursive: true });
    writeFileSync(path.join(cwd, 'suites/a.prompttest.json'), '{}');
    writeFileSync(path.join(cwd, 'baseline.json'), '{}');
    writeFileSync(path.join(cwd, 'tenant/convai-tenant.json'), '{}');
    writeFileSync(path.join(cwd, 'old.xml'), '');
    symlinkSync(path.join(cwd, 'suites/a.prompttest.json'), path.join(cwd, 'link.xml'));
    mkdirSync(path.join(cwd, 'other'));
    writeFileSync(path.join(cwd, 'other/convai-tenant.json'), '{}');
    writeFileSync(path.join(cwd, 'other/.convai-tenant.journal'), '');
    symlinkSync(path.join(cwd, 'old.xml'), path.join(cwd, 'old-link.xml'));
    symlinkSync(path.join(cwd, 'nowhere.xml'), path.join(cwd, 'dangling.xml'));
    inputs = {
      suites: [path.join(cwd, 'suites/a.prompttest.json')],
      baseline: 'baseline.json',
      affectedBy: './tenant',
    };
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it('takes a new file, in a folder there is or one to create, and a file there is that is no input', async () => {
    for (const value of ['report.xml', 'reports/ci/report.xml', 'old.xml', './suites/report.xml']) {
      assert.equal(await junitPath(value, inputs, cwd), path.resolve(cwd, value));
    }
  });

  it('refuses a suite, the baseline or a path inside the --affected-by folder, however it is written', async () => {
    await refused(
      'suites/a.prompttest.json',
      /is the suite suites\/a\.prompttest\.json, which this run reads and the report would replace; nothing was sent: give --junit a file of its own/,
    );
    await refused('./suites/../suites/a.prompttest.json', /is the suite suites\/a\.prompttest\.json/);
    await refused('link.xml', /is the suite suites\/a\.prompttest\.json/);
    await refused('baseline.json', /is the --baseline report baseline\.json/);
    await refused(
      'tenant/convai-tenant.json',
      /is inside the tenant folder \.\/tenant that --affected-by reads; nothing was sent: give --junit a path outside it/,
    );
    await refused('tenant/ai_prompts/new/report.xml', /is inside the tenant folder/);
  });

  it("refuses the tool's own files, any folder's, there or not, and a symbolic link, wherever it points", async () => {
    await refused(
      'other/convai-tenant.json',
      /is named as a tenant folder's manifest \(convai-tenant\.json\), a file this tool reads; nothing was sent: give --junit a file of its own, e\.g\. --junit prompt-tests\.xml\.$/,
    );
    await refused(
      'other/.convai-tenant.journal',
      /is named as a tenant folder's push journal \(\.convai-tenant\.journal\)/,
    );
    await refused('Convai-Tenant.JSON', /is named as a tenant folder's manifest/);
    await refused('new.prompttest.json', /is named as a prompt test suite \(\*\.prompttest\.json\)/);
    await refused('labels.judgetest.json', /is named as a judge's labelled calls \(\*\.judgetest\.json\)/);
    await refused('ask.apirequest.json', /is named as a request definition \(\*\.apirequest\.json\)/);
    await refused(
      'old-link.xml',
      /is a symbolic link \(to .*old\.xml\): the report would replace the file it points to; nothing was sent: give --junit a file of its own/,
    );
    await refused('dangling.xml', /is a symbolic link \(to .*nowhere\.xml\)/);
  });

  it('refuses a folder, and a path under a file, naming the fix', async () => {
    await refused(
      'suites',
      /is a folder; nothing was sent: give --junit a file, e\.g\. --junit suites\/prompt-tests\.xml\.$/,
    );
    await refused(
      'old.xml/report.xml',
      /cannot be written: .*old\.xml is a file, not a folder; nothing was sent: give --junit a path in a folder/,
    );
    await assert.rejects(junitPath(' ', inputs, cwd), /--junit needs a file name/);
  });
});
