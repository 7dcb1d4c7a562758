/**
 * Names a folder's readers take for something other than a resource's file
 * (a README, a dotfile, the manifest's name, a device, a text part's or a
 * suite's suffix, a kind's folder, names one on Windows and macOS), given to
 * resources on the service: a pull, then a plan and a push with no edit send
 * nothing, and drift and the map see every one of them, in a folder a pull
 * writes now and in one an older version wrote.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { FlowMap } from '../../src/core/flow-map/model';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

interface Entry {
  segment: string;
  id: number;
  file: string;
  name: string;
}
interface Logged {
  method: string;
  path: string;
}
interface PlanJson {
  changes: Array<{ action: string; name: string }>;
  problems: string[];
  drift?: Array<{ change: string; name: string }>;
}

/** Each name, and the rule of the folder's readers it would meet as a file name. */
const PROMPT_NAMES: ReadonlyArray<readonly [name: string, rule: string]> = [
  ['README', 'README*'],
  ['readme.md', 'README*'],
  ['README Guide', 'README*'],
  ['ReadMe', 'README*, and one file with "README" on Windows and macOS'],
  ['.hidden', 'a dotfile'],
  ['.convai-tenant.journal', 'the push journal'],
  ['Convai Tenant', 'the manifest, convai-tenant.json'],
  ['CON', 'a Windows device'],
  ['Greeting.system.md', 'a text part'],
  ['Orders.prompttest.json', 'a prompt test suite'],
  ['Orders.judgetest.json', 'a judge file'],
  ['intents', "a kind's folder"],
  ['tenant', "the tenant's file"],
  ['!!!', 'no letter or digit at all'],
];

describe('contract: names the folder would read as something else, pulled (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let tenantId: number;
  const prompts = kindById('prompt');
  const datasources = kindById('datasource');

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken });
  const at = (file: string): string => path.join(work, 'folder', ...file.split('/'));
  const entries = async (): Promise<Entry[]> =>
    (JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as { resources: Entry[] }).resources;
  const logged = async (): Promise<Logged[]> =>
    (await (await request(`${ctx.service.url}/__test/requests`)).body.json()) as Logged[];
  const clearLog = (): Promise<string> =>
    request(`${ctx.service.url}/__test/requests`, { method: 'DELETE' }).then((r) => r.body.text());
  const entryOf = async (segment: string, name: string): Promise<Entry> => {
    const found = (await entries()).find((e) => e.segment === segment && e.name === name);
    assert.ok(found, `${segment} "${name}" is in the manifest`);
    return found;
  };

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    tenantId = await freshTenant(ctx, 'Names');
    const ids = new Map<string, number>();
    for (const [name] of PROMPT_NAMES)
      ids.set(name, (await ctx.admin.create(prompts, { name, system: `The ${name} prompt.` }, tenantId)).id as number);
    // References between them, so the map has edges to lose.
    await ctx.admin.update(
      prompts,
      ids.get('README Guide') as number,
      { next_prompt_id: ids.get('README') as number, exit_prompt_id: ids.get('Convai Tenant') as number },
      tenantId,
    );
    await ctx.admin.create(datasources, { name: 'Readme', type: 'text', content: 'How the data is kept.' }, tenantId);
    await ctx.admin.create(prompts, { name: 'Plain', system: 'An ordinary name.' }, tenantId);
    work = await mkdtemp(path.join(tmpdir(), 'convai-names-'));
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** A plan that holds nothing, a push that sends no change, drift that sees the README and the map every resource. */
  async function nothingLost(): Promise<void> {
    const planned = await run('plan', '--json', 'folder');
    assert.deepEqual(JSON.parse(planned.stdout), { changes: [], problems: [] }, planned.stderr);
    assert.equal(planned.code, 0, planned.stderr);

    await clearLog();
    const pushed = await run('push', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(pushed.stdout.trim(), 'Nothing to push: no change in the folder since the pull.');
    assert.deepEqual(
      (await logged()).filter((l) => l.method !== 'GET'),
      [],
      'the push sent no DELETE, PUT or POST',
    );
    for (const [name] of PROMPT_NAMES)
      assert.ok(
        (await ctx.admin.list(prompts, tenantId)).some((p) => p.name === name),
        `"${name}" is still on the service`,
      );

    const mapped = await runCli(['map', '--format', 'json', 'folder'], work, {});
    assert.equal(mapped.code, 0, mapped.stderr);
    const model = JSON.parse(mapped.stdout) as FlowMap;
    const pulled = (await entries())
      .filter((e) => e.segment !== 'tenants')
      .map((e) => `${e.segment}/${e.id}`)
      .sort();
    assert.deepEqual(model.nodes.map((n) => n.id).sort(), pulled, 'the map holds every pulled resource');
    const guide = await entryOf('ai_prompts', 'README Guide');
    const readme = await entryOf('ai_prompts', 'README');
    assert.ok(
      model.edges.some(
        (e) => e.from === `ai_prompts/${guide.id}` && e.to === `ai_prompts/${readme.id}` && e.kind === 'next',
      ),
      mapped.stdout,
    );
    assert.deepEqual(
      model.problems.filter((p) => p.kind === 'dangling'),
      [],
    );

    // A colleague edits the README prompt and the Readme datasource: drift and plan --drift name them, no conflict.
    const source = await entryOf('datasources', 'Readme');
    await ctx.admin.update(prompts, readme.id, { description: 'Edited on the service' }, tenantId);
    await ctx.admin.update(datasources, source.id, { content: 'Kept elsewhere now.' }, tenantId);
    const drift = await run('drift', '--json', 'folder');
    assert.equal(drift.code, 1, drift.stderr);
    assert.deepEqual(
      (JSON.parse(drift.stdout) as { drifted: Array<{ change: string; name: string }> }).drifted.map((d) => [
        d.change,
        d.name,
      ]),
      [
        ['changed', 'README'],
        ['changed', 'Readme'],
      ],
    );
    const noted = await run('plan', '--drift', '--json', 'folder');
    assert.equal(noted.code, 0, noted.stderr);
    const plan = JSON.parse(noted.stdout) as PlanJson;
    assert.deepEqual([plan.changes, plan.problems], [[], []]);
    assert.deepEqual(
      plan.drift?.map((d) => [d.change, d.name]),
      [
        ['changed', 'README'],
        ['changed', 'Readme'],
      ],
    );
  }

  it('writes each to a file read as that resource alone, then plans and pushes nothing, and drift and the map see them all', async () => {
    const pulled = await entries();
    const kinds: ReadonlyArray<readonly [ResourceKind, string]> = [
      ...PROMPT_NAMES.map(([name]) => [prompts, name] as const),
      [datasources, 'Readme'],
    ];
    for (const [kind, name] of kinds) {
      const entry = pulled.find((e) => e.segment === kind.segment && e.name === name);
      assert.ok(entry, `${kind.segment} "${name}" was pulled`);
      const file = entry.file.slice(entry.file.indexOf('/') + 1);
      assert.match(
        file,
        /^[a-z0-9][a-z0-9_-]*\.json$/,
        `${entry.file}: letters, digits, - and _ only, so no suffix a reader looks for`,
      );
      assert.doesNotMatch(file, /^readme/i, `${entry.file} is no README`);
      assert.notEqual(file, 'convai-tenant.json', `${entry.file} is no manifest`);
      assert.doesNotMatch(file, /^(con|prn|aux|nul|com\d|lpt\d)\./, `${entry.file} is no device`);
      assert.match(await readFile(at(entry.file), 'utf8'), new RegExp(`"id": ${entry.id}`));
    }
    assert.equal(
      new Set(pulled.map((e) => e.file.toLowerCase())).size,
      pulled.length,
      'no two files are one on Windows or macOS',
    );
    await nothingLost();
  });

  it('reads a README-named file an older version pulled, and its text parts, as the resource its manifest lists', async () => {
    // As earlier versions named them: the name's slug alone.
    const renamed: Array<[segment: string, name: string, file: string]> = [
      ['ai_prompts', 'README', 'readme'],
      ['ai_prompts', 'README Guide', 'readme-guide'],
      ['datasources', 'Readme', 'readme'],
    ];
    const manifest = JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as { resources: Entry[] };
    for (const [segment, name, stem] of renamed) {
      const entry = manifest.resources.find((e) => e.segment === segment && e.name === name) as Entry;
      const base = entry.file.replace(/\.json$/, '');
      await rename(at(entry.file), at(`${segment}/${stem}.json`));
      if (segment === 'ai_prompts') await rename(at(`${base}.system.md`), at(`${segment}/${stem}.system.md`));
      entry.file = `${segment}/${stem}.json`;
    }
    await writeFile(at('convai-tenant.json'), JSON.stringify(manifest, null, 2));
    await nothingLost();
    const repulled = await run('pull', 'folder');
    assert.equal(repulled.code, 0, repulled.stderr);
    assert.equal(
      (await entryOf('ai_prompts', 'README')).file,
      'ai_prompts/readme.json',
      'a pull keeps the file the folder has',
    );
  });
});
