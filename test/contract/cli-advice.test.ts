/**
 * The command-line tool's failed requests, run as CI runs it: each message
 * names the fix a terminal user can apply (an environment variable, a flag)
 * and never a VS Code command or setting.
 */
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import { listenOnLoopback } from '../support/loopback';
import { runCli, type Run } from './cli-process';
import { startContract, type ContractContext } from './setup';

/** VS Code's command titles and settings, which mean nothing in a terminal. */
const VS_CODE_WORDS = /convai\.|ConvAI:|http\.proxy|http\.noProxy|refresh the view|the connection's baseUrl/;

function assertTerminalWords(result: Run): void {
  const output = `${result.stdout}${result.stderr}`;
  assert.doesNotMatch(output, VS_CODE_WORDS);
  assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
}

describe('contract: the command-line tool names terminal fixes for failed requests', function () {
  let ctx: ContractContext;
  let work: string;
  const pull = (url: string, env: Record<string, string | undefined> = {}): Promise<Run> =>
    runCli(['pull', '--url', url, '--tenant', '1', 'acme'], work, { CONVAI_TOKEN: ctx.service.adminToken, ...env });
  const faults = async (...queue: JsonObject[]): Promise<void> => {
    await (
      await request(`${ctx.service.url}/__test/faults`, {
        method: 'POST',
        body: JSON.stringify({ queue }),
        headers: { 'content-type': 'application/json' },
      })
    ).body.text();
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-advice-'));
  });
  afterEach(async () => {
    await (await request(`${ctx.service.url}/__test/faults`, { method: 'DELETE' })).body.text();
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a refused token: set CONVAI_TOKEN', async () => {
    const result = await pull(ctx.service.url, { CONVAI_TOKEN: 'wrong-token-7c2e' });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /401 Unauthorized.* Set the environment variable CONVAI_TOKEN to a valid token for this service\.$/m,
    );
    assertTerminalWords(result);
  });

  it('a time-out: raise CONVAI_TIMEOUT_SECONDS, which sets the deadline', async () => {
    await faults({ match: 'GET /api/v1/tenants/1', stallBodyMs: 4000 });
    const result = await pull(ctx.service.url, { CONVAI_TIMEOUT_SECONDS: '1' });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /timed out: no complete answer within 1 s\. .*raise the environment variable CONVAI_TIMEOUT_SECONDS/,
    );
    assertTerminalWords(result);
  });

  it('a time-out that is not a number of seconds: a usage error naming CONVAI_TIMEOUT_SECONDS', async () => {
    for (const value of ['0', 'soon', '601']) {
      const result = await pull(ctx.service.url, { CONVAI_TIMEOUT_SECONDS: value });
      assert.equal(result.code, 2, value);
      assert.match(
        result.stderr,
        new RegExp(
          `^CONVAI_TIMEOUT_SECONDS "${value}" is not a request time-out: give a number of seconds from 1 to 600`,
        ),
      );
    }
  });

  it('a closed port: check the service and the base URL given with --url', async () => {
    const closed = await listenOnLoopback(createServer());
    await closed.close();
    const result = await pull(closed.url);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /the connection was refused; check that the service is running and the base URL \(--url\) is right\.$/m,
    );
    assertTerminalWords(result);
  });

  it('a redirect: change the base URL given with --url', async () => {
    const moved = await listenOnLoopback(
      createServer((_req, res) => res.writeHead(302, { location: 'https://moved.example.com/api/v1/tenants/1' }).end()),
    );
    try {
      const result = await pull(moved.url);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        /was redirected \(302 Found\) to https:\/\/moved\.example\.com\/api\/v1\/tenants\/1\. .*change the base URL \(--url\)\.$/m,
      );
      assertTerminalWords(result);
    } finally {
      await moved.close();
    }
  });

  it('a prompt test whose request is refused: the case names CONVAI_TOKEN', async () => {
    const suite = {
      target: { tenantId: 1 },
      prompt: 'Order Triage',
      cases: [{ name: 'any', prompt_text: 'x', expect: { response: 'x' } }],
    };
    await writeFile(path.join(work, 'refused.prompttest.json'), JSON.stringify(suite));
    await faults({ match: '/test_prompt', status: 401, body: '{"error":"Invalid token"}', count: 5 });
    const result = await runCli(['test', '--url', ctx.service.url, 'refused.prompttest.json'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /Set the environment variable CONVAI_TOKEN to a valid token for this service\./);
    assertTerminalWords(result);
  });
});
