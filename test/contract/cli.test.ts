/**
 * The command-line tool (dist/cli.js) against the local service, run as CI
 * runs it: a separate process with the token in CONVAI_TOKEN. The CLI comes
 * from the environment variable CONVAI_CLI when set (a bundle built
 * elsewhere), else from the repository's dist/cli.js.
 */
import * as assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';
import type { PublicChange } from '../../src/core/tenant/plan-text';

const TENANT = 1;
/** Every credential value of tenant 1's sample data (test/service/sample-data.ts), and the tenant's token. */
const SECRETS = [
  'sk-acme-sample-not-a-real-key',
  'sample-twilio-auth-token',
  'dg-acme-sample-key',
  'acme-orders-sample-key',
  'sample-acme-mcp-token',
  'acme-tenant-token',
];

interface Manifest {
  connection: string;
  baseUrl: string;
  tenantId: number;
  resources: Array<{ segment: string; id: number; file: string; name: string }>;
}

/** `token` null runs without CONVAI_TOKEN. */
function cli(args: string[], cwd: string, token: string | null): Promise<Run> {
  return runCli(args, cwd, { CONVAI_TOKEN: token ?? undefined });
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('contract: the command-line tool (pull, plan, push)', function () {
  let ctx: ContractContext;
  let work: string;
  let folder: string;
  const runs: Run[] = [];
  const run = async (args: string[], token: string | null = ctx.service.adminToken): Promise<Run> => {
    const result = await cli(args, work, token);
    runs.push(result);
    return result;
  };
  const planJson = async (): Promise<{
    code: number | null;
    plan: { changes: PublicChange[]; problems: string[] };
  }> => {
    const result = await run(['plan', '--json', 'acme']);
    return { code: result.code, plan: JSON.parse(result.stdout) as { changes: PublicChange[]; problems: string[] } };
  };
  const manifest = async (): Promise<Manifest> =>
    JSON.parse(await readFile(path.join(folder, 'convai-tenant.json'), 'utf8')) as Manifest;
  const entry = async (segment: string, name: string): Promise<Manifest['resources'][number]> => {
    const found = (await manifest()).resources.find((r) => r.segment === segment && r.name === name);
    assert.ok(found, `${segment} "${name}" in the manifest`);
    return found;
  };
  const editJson = async (file: string, change: JsonObject): Promise<void> => {
    const at = path.join(folder, file);
    await writeFile(
      at,
      JSON.stringify({ ...(JSON.parse(await readFile(at, 'utf8')) as JsonObject), ...change }, null, 2),
    );
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-'));
    folder = path.join(work, 'acme');
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('pulls tenant 1 into a new folder (a path relative to the working directory), exit 0', async () => {
    const result = await run(['pull', '--url', ctx.service.url, '--tenant', String(TENANT), 'acme']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^Pulled tenant 1 .*: \d+ resources; \d+ files written, 0 files kept with your changes, 0 files removed\.\n$/,
    );
    const pulled = await manifest();
    assert.equal(pulled.connection, 'cli');
    assert.equal(pulled.baseUrl, ctx.service.url);
    assert.equal(pulled.tenantId, TENANT);
    const files = (await filesUnder(folder)).map((f) => path.relative(folder, f).split(path.sep).join('/'));
    for (const { file } of pulled.resources) assert.ok(files.includes(file), file);
    assert.ok(
      files.some((f) => /^ai_prompts\/.+\.system\.md$/.test(f)),
      'a prompt text in its own file',
    );
  });

  it('writes no credential into the folder', async () => {
    for (const file of await filesUnder(folder)) {
      const text = await readFile(file, 'utf8');
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in ${file}`);
    }
  });

  it('plans nothing for an unedited pull, exit 0', async () => {
    const { code, plan } = await planJson();
    assert.equal(code, 0);
    assert.deepEqual(plan, { changes: [], problems: [] });
  });

  it("plans an update, a create and a delete for the folder's edits, exit 0", async () => {
    const triage = await entry('ai_prompts', 'Order Triage');
    const ticket = await entry('ai_actions', 'Create Ticket');
    await editJson(triage.file, { description: 'Classifies the request in one word' });
    await appendFile(path.join(folder, triage.file.replace(/\.json$/, '.system.md')), '\nNever guess.\n');
    await writeFile(
      path.join(folder, 'intents/ship-abroad.json'),
      JSON.stringify(
        { name: 'ship_abroad', display_name: 'Shipping abroad', intent_type: 1, ai_prompt_id: triage.id },
        null,
        2,
      ),
    );
    await rm(path.join(folder, ticket.file));
    const { code, plan } = await planJson();
    assert.equal(code, 0);
    assert.deepEqual(plan, {
      changes: [
        {
          action: 'update',
          segment: 'ai_prompts',
          id: triage.id,
          name: 'Order Triage',
          fields: ['description', 'system'],
        },
        {
          action: 'create',
          segment: 'intents',
          name: 'ship_abroad',
          fields: ['name', 'display_name', 'intent_type', 'ai_prompt_id'],
        },
        { action: 'delete', segment: 'ai_actions', id: ticket.id, name: 'Create Ticket', fields: [] },
      ],
      problems: [],
    });
  });

  it('pushes the plan, exit 0, and then plans nothing', async () => {
    const triage = await entry('ai_prompts', 'Order Triage');
    const result = await run(['push', 'acme']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]),
      ['updated', 'created', 'deleted'],
    );
    const detail = await ctx.admin.get(kindById('prompt'), triage.id, TENANT);
    assert.equal(detail.description, 'Classifies the request in one word');
    assert.match(String(detail.system), /\nNever guess\.$/, "the file's final newline is not part of the text");
    const created = await entry('intents', 'ship_abroad');
    assert.equal((await ctx.admin.get(kindById('intent'), created.id, TENANT)).display_name, 'Shipping abroad');
    const { code, plan } = await planJson();
    assert.equal(code, 0);
    assert.deepEqual(plan, { changes: [], problems: [] });
  });

  it('plans a conflict (exit 1) for a resource changed in the folder and on the service, and push sends nothing (exit 1)', async () => {
    const welcome = await entry('ai_actions', 'Welcome Message');
    const help = await entry('datasources', 'Help Center');
    await editJson(welcome.file, { speak: 'Changed in the folder.' });
    await editJson(help.file, { name: 'Help Centre' });
    await ctx.admin.update(kindById('action'), welcome.id, { speak: 'Changed on the service.' }, TENANT);

    const { code, plan } = await planJson();
    assert.equal(code, 1);
    const conflict = plan.changes.find((c) => c.action === 'conflict');
    assert.deepEqual(conflict, {
      action: 'conflict',
      segment: 'ai_actions',
      id: welcome.id,
      name: 'Welcome Message',
      fields: ['speak'],
    });
    const table = await run(['plan', 'acme']);
    assert.equal(table.code, 1);
    assert.match(table.stdout, /conflict: .*changed on the service since the pull \(speak\)/);

    const pushed = await run(['push', 'acme']);
    assert.equal(pushed.code, 1);
    assert.match(pushed.stderr, /^Nothing was sent: .*welcome-message\.json/);
    assert.equal((await ctx.admin.get(kindById('action'), welcome.id, TENANT)).speak, 'Changed on the service.');
    assert.equal(
      (await ctx.admin.get(kindById('datasource'), help.id, TENANT)).name,
      'Help Center',
      'the change without a conflict is not sent either',
    );
  });

  it('pulls again, keeping the files changed in the folder and the connection name', async () => {
    const result = await run(['pull', '--list-written', '--url', ctx.service.url, '--tenant', String(TENANT), 'acme']);
    assert.equal(result.code, 0, result.stderr);
    // The pushed delete of Create Ticket left Cancel Order's linked actions on the service, so its readOnly block is rewritten.
    assert.match(
      result.stdout,
      /; 1 file written, 2 files kept with your changes, 0 files removed\.\nwrote intents\/cancel-order\.json\n/,
    );
    assert.match(result.stdout, /^kept ai_actions\/welcome-message\.json \(your change: speak\)$/m);
    assert.match(result.stdout, /^kept datasources\/help-center\.json \(your change: name\)$/m);
    assert.equal((await manifest()).connection, 'cli');
    const welcome = await entry('ai_actions', 'Welcome Message');
    assert.equal(
      (JSON.parse(await readFile(path.join(folder, welcome.file), 'utf8')) as JsonObject).speak,
      'Changed in the folder.',
    );
  });

  it('pulls a folder pulled before with neither --url nor --tenant, from its manifest', async () => {
    const result = await run(['pull', 'acme']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^Pulled tenant ${TENANT} of ${ctx.service.url} into `));
    assert.match(result.stdout, /; 0 files written, 2 files kept with your changes/);
  });

  it("pulls and plans with the tenant's own token, leaving out only the tenant record it may not read", async () => {
    const token = ctx.service.tenantTokens.find((t) => t.id === TENANT)?.token ?? null;
    const own = await run(['pull', '--url', ctx.service.url, '--tenant', String(TENANT), 'own'], token);
    assert.equal(own.code, 0, own.stderr);
    assert.match(
      own.stderr,
      /^note: the token may not read tenant 1's own record \(403\), so the folder holds no tenant\.json; everything else was pulled$/m,
    );
    const files = (await filesUnder(path.join(work, 'own'))).map((file) => path.relative(path.join(work, 'own'), file));
    assert.ok(
      !files.includes('tenant.json') && files.includes(path.join('ai_prompts', 'order-triage.json')),
      files.join('\n'),
    );
    const planned = await run(['plan', 'own'], token);
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /no change in the folder since the pull/);
    const again = await run(['pull', 'acme'], token);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /so tenant\.json was left as it was/);
    assert.ok(
      (await manifest()).resources.some((r) => r.segment === 'tenants'),
      'the tenant stays in the manifest',
    );
  });

  it('prints its version with --version, exit 0', async () => {
    const result = await run(['--version']);
    assert.equal(result.code, 0, result.stderr);
    const { version } = JSON.parse(await readFile(path.join(__dirname, '../../../package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(result.stdout.trim(), version);
  });

  it('is a usage error (exit 2) without CONVAI_TOKEN', async () => {
    const result = await run(['plan', 'acme'], null);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /CONVAI_TOKEN/);
    assert.equal(result.stdout, '');
  });

  it('fails (exit 1) on a token the service refuses, naming the 401 but never the token', async () => {
    const token = 'wrong-token-3f9a1c';
    const result = await run(['plan', 'acme'], token);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /401 Unauthorized.*CONVAI_TOKEN/);
    assert.ok(!`${result.stdout}${result.stderr}`.includes(token));
  });

  it('answers usage errors with exit 2 and one line on stderr, and --help with exit 0', async () => {
    const usage = [
      ['deploy', 'acme'],
      ['plan', '--frob', 'acme'],
      ['plan'],
      ['plan', work],
      ['pull', '--url', ctx.service.url, '--tenant', 'one', 'other'],
      ['pull', '--tenant', '1', 'other'],
    ];
    for (const args of usage) {
      const result = await run(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    }
    assert.equal((await run([])).code, 2);
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /pull[\s\S]*plan[\s\S]*push/);
  });

  it('never prints the token', () => {
    for (const { stdout, stderr } of runs) assert.ok(!`${stdout}${stderr}`.includes(ctx.service.adminToken));
  });
});
