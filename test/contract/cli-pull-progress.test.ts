/**
 * A long pull through the command-line tool: counts on a terminal only, and Ctrl+C stops it with a folder whose
 * manifest matches its files, which the next pull completes.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { CLI, runCli, startCli } from './cli-process';
import { raw } from './fixtures';
import { freshTenant, useContract, type ContractContext } from './setup';

const PROMPTS = 40;

/** The CLI on a pseudo-terminal (util-linux's `script`), stdout and stderr both on it: what a person at a terminal sees. */
function onTerminal(args: string[], cwd: string, token: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: { ...process.env, CONVAI_TOKEN: token },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function jsonFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.json') && entry.name !== 'convai-tenant.json') {
      found.push(path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    }
  }
  return found.sort();
}

describe('contract: a long pull (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let tenantId: number;
  const latency = (latencyMs: number): Promise<unknown> =>
    raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify({ latencyMs }));

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    tenantId = await freshTenant(ctx, 'Long Pull');
    for (let index = 0; index < PROMPTS; index++)
      await ctx.admin.create(kindById('prompt'), { name: `Prompt ${index}`, system: 'Say hello.' }, tenantId);
    work = await mkdtemp(path.join(tmpdir(), 'convai-long-pull-'));
  });
  afterEach(async () => {
    await latency(0);
    await rm(work, { recursive: true, force: true });
  });

  it('shows its counts on stderr only when that is a terminal', async () => {
    const piped = await runCli(['pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'piped'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stderr, '', 'a pipe or a log gets no progress');
    // A request slower than the progress line's pace, so a count is shown before the pull ends.
    await latency(150);
    const shown = await onTerminal(
      ['pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'terminal'],
      work,
      ctx.service.adminToken,
    );
    assert.equal(shown.code, 0, shown.output);
    assert.match(shown.output, new RegExp(`\\rpull: \\d+ of ${PROMPTS + 1} resources`));
    assert.match(shown.output, /Pulled tenant \d+ of .*: 41 resources/);
  });

  it('stops on Ctrl+C with exit 130, the manifest matching the files written, and the next pull completes the folder', async () => {
    await latency(100);
    const details = ctx.service.requests.arrivals(
      5,
      (r) => r.method === 'GET' && /^\/api\/v1\/ai_prompts\/\d+$/.test(r.path),
    );
    const started = startCli(['pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    await details;
    started.child.kill('SIGINT');
    const stopped = await started.done;
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.match(
      stopped.stderr,
      /Stopped by Ctrl\+C: .* holds what was pulled so far, recorded in its manifest; run pull again to complete it\./,
    );
    const folder = path.join(work, 'folder');
    const manifestText = await readFile(path.join(folder, 'convai-tenant.json'), 'utf8').catch(() => undefined);
    const recorded =
      manifestText === undefined
        ? []
        : (JSON.parse(manifestText) as { resources: Array<{ file: string }> }).resources.map((r) => r.file).sort();
    assert.deepEqual(
      await jsonFiles(folder).catch(() => []),
      recorded,
      'every file written is in the manifest, and every entry has its file',
    );
    assert.ok(recorded.length < PROMPTS + 1, 'stopped before the end');

    await latency(0);
    const again = await runCli(['pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await jsonFiles(folder)).length, PROMPTS + 1);
    const plan = await runCli(['plan', 'folder'], work, { CONVAI_TOKEN: ctx.service.adminToken });
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /no change in the folder since the pull/);
  });
});
