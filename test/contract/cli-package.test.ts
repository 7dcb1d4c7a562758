/**
 * The command-line tool as CI installs it: `npm run package`'s convai-cli-<version>.tgz, installed with
 * `npm install -g` into an empty prefix, run as `convai` from there, away from the repository.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { kindById } from '../../src/core/resources';
import { repoRoot } from '../harness/paths';
import { runCli } from './cli-process';
import { startContract, type ContractContext } from './setup';

describe("contract: the command-line tool's package, installed", function () {
  let ctx: ContractContext;
  let work: string;
  let convai: string;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-package-'));
    const { packageCli } = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'package.mjs')).href)) as {
      packageCli: () => string;
    };
    const tgz = packageCli();
    const prefix = path.join(work, 'prefix');
    // Offline: the package has no dependency to fetch.
    const installed = spawnSync(
      'npm',
      ['install', '-g', tgz, '--prefix', prefix, '--offline', '--no-audit', '--no-fund'],
      { cwd: work, encoding: 'utf8' },
    );
    assert.equal(installed.status, 0, installed.stderr);
    convai = path.join(prefix, 'bin', 'convai');
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('holds the tool and what it loads, nothing else to install', async () => {
    const installedAt = path.join(work, 'prefix', 'lib', 'node_modules', 'convai-cli');
    assert.deepEqual((await readdir(path.join(installedAt, 'dist'))).sort(), [
      'cli-main.js',
      'cli.js',
      're2js.js',
      'undici.js',
      'validators.js',
      'writer-worker-script.js',
    ]);
    const manifest = JSON.parse(await readFile(path.join(installedAt, 'package.json'), 'utf8')) as {
      bin: unknown;
      dependencies?: unknown;
    };
    assert.deepEqual(manifest.bin, { convai: 'dist/cli.js' });
    assert.equal(manifest.dependencies, undefined);
  });

  it("runs as convai with a tenant's own token: its version, a pull, a plan, a prompt test and a push against the service", async () => {
    const { version } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const shown = await runCli(['--version'], work, {}, convai);
    assert.equal(shown.stdout.trim(), version);
    const token = ctx.service.tenantTokens.find((t) => t.id === 1)?.token;
    assert.ok(token, 'the sample tenant 1 has a token');
    const env = { CONVAI_TOKEN: token, CONVAI_URL: ctx.service.url };
    const pulled = await runCli(['pull', '--url', ctx.service.url, '--tenant', '1', 'tenant'], work, env, convai);
    assert.equal(pulled.code, 0, pulled.stderr);
    const planned = await runCli(['plan', 'tenant'], work, env, convai);
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /no change in the folder since the pull/);
    await writeFile(
      path.join(work, 'greeting.prompttest.json'),
      JSON.stringify({
        target: { tenantId: 1 },
        prompt: 'Order Triage',
        cases: [{ name: 'answers', prompt_text: 'Hello', expect: { response: { matches: '\\S' } } }],
      }),
    );
    const tested = await runCli(['test', 'greeting.prompttest.json'], work, env, convai);
    assert.equal(tested.code, 0, `${tested.stdout}${tested.stderr}`);
    const file = path.join(work, 'tenant', 'ai_prompts', 'order-triage.json');
    await writeFile(
      file,
      JSON.stringify(
        { ...(JSON.parse(await readFile(file, 'utf8')) as object), description: "Pushed with the tenant's own token" },
        null,
        2,
      ),
    );
    const pushed = await runCli(['push', 'tenant'], work, env, convai);
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.match(pushed.stdout, /^updated ai_prompts "Order Triage"/);
    assert.equal((await ctx.admin.get(kindById('prompt'), 2, 1)).description, "Pushed with the tenant's own token");
    const usage = await runCli(['plan'], work, env, convai);
    assert.match(
      usage.stderr,
      /^plan needs a folder: convai plan … <folder>\./,
      'usage lines name the installed command',
    );
  });
});
