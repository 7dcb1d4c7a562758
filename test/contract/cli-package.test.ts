/**
 * The command-line tool as CI installs it: `npm run package`'s convai-cli-<version>.tgz, installed with
 * `npm install -g` into an empty prefix, run as `convai` from there, away from the repository.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../harness/paths';
import { runCli } from './cli-process';
import { startContract, type ContractContext } from './setup';

describe('contract: the command-line tool\'s package, installed', function () {
  let ctx: ContractContext;
  let work: string;
  let convai: string;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-package-'));
    const { packageCli } = await import(pathToFileURL(path.join(repoRoot, 'scripts', 'package.mjs')).href) as { packageCli: () => string };
    const tgz = packageCli();
    const prefix = path.join(work, 'prefix');
    // Offline: the package has no dependency to fetch.
    const installed = spawnSync('npm', ['install', '-g', tgz, '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], { cwd: work, encoding: 'utf8' });
    assert.equal(installed.status, 0, installed.stderr);
    convai = path.join(prefix, 'bin', 'convai');
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('holds the tool and what it loads, nothing else to install', async () => {
    const installedAt = path.join(work, 'prefix', 'lib', 'node_modules', 'convai-cli');
    assert.deepEqual((await readdir(path.join(installedAt, 'dist'))).sort(), ['cli.js', 'undici.js', 'validators.js']);
    const manifest = JSON.parse(await readFile(path.join(installedAt, 'package.json'), 'utf8')) as { bin: unknown; dependencies?: unknown };
    assert.deepEqual(manifest.bin, { convai: 'dist/cli.js' });
    assert.equal(manifest.dependencies, undefined);
  });

  it('runs as convai: its version, a pull and a plan against the service', async () => {
    const { version } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const shown = await runCli(['--version'], work, {}, convai);
    assert.equal(shown.stdout.trim(), version);
    const env = { CONVAI_TOKEN: ctx.service.adminToken };
    const pulled = await runCli(['pull', '--url', ctx.service.url, '--tenant', '1', 'tenant'], work, env, convai);
    assert.equal(pulled.code, 0, pulled.stderr);
    const planned = await runCli(['plan', 'tenant'], work, env, convai);
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /nothing to push/);
    const usage = await runCli(['plan'], work, env, convai);
    assert.match(usage.stderr, /^plan needs a folder: convai plan … <folder>\./, 'usage lines name the installed command');
  });
});
