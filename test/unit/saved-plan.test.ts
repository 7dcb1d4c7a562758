import * as assert from 'node:assert/strict';
import path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { readManifest, type Manifest } from '../../src/core/tenant/manifest';
import { planPush } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { push } from '../../src/core/tenant/push';
import { PushRefused } from '../../src/core/tenant/push-refused';
import {
  formatSavedPlan,
  parseSavedPlan,
  savedPlanPlaceProblem,
  savePlan,
  SavedPlanError,
  SavedPlanRefused,
  type SavedPlan,
} from '../../src/core/tenant/saved-plan';
import { verifySavedPlan } from '../../src/core/tenant/saved-plan-check';
import { startService, type RunningService } from '../service/server';

const prompts = kindById('prompt');
const integrations = kindById('integration');
const SECRET = 'saved-plan-secret-7c1e';

describe('saved plans', () => {
  let service: RunningService;
  let client: ServiceClient;
  let tenantId: number;
  let greeting: number;
  let closing: number;
  let io: MemoryFolder;

  before(async () => {
    service = await startService({ adminToken: 'saved-plan-admin-token' });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  });
  after(async () => {
    await client.close();
    await service.close();
  });
  beforeEach(async () => {
    tenantId = (await client.create(kindById('tenant'), { name: 'Saved', email: 's@example.com' })).id as number;
    greeting = (await client.create(prompts, { name: 'Greeting', system: 'Say hello.' }, tenantId)).id as number;
    closing = (await client.create(prompts, { name: 'Closing', system: 'Say goodbye.' }, tenantId)).id as number;
    await client.create(
      integrations,
      { name: 'CRM', system: 'http_api', technical_id: 'crm', tec_params: { api_key: SECRET } },
      tenantId,
    );
    io = new MemoryFolder();
    await pullTenant(client, io, { connection: 'local', baseUrl: service.url, tenantId });
  });

  /** The folder with Greeting's text edited, Closing removed and a new prompt, saved as a plan. */
  async function editedAndSaved(): Promise<SavedPlan> {
    io.files.set('ai_prompts/greeting.system.md', 'Say hello warmly.');
    io.files.delete('ai_prompts/closing.json');
    io.files.delete('ai_prompts/closing.system.md');
    io.files.set('ai_prompts/new.json', JSON.stringify({ name: 'New', system: 'New text.' }));
    const integration = JSON.parse(io.files.get('integrations/crm.json') ?? '{}') as Record<string, unknown>;
    io.files.set('integrations/crm.json', JSON.stringify({ ...integration, system: 'http_api_v2' }));
    return savePlan(await planPush(client, io), io);
  }

  it("holds the changes in the push's order, a hash of each file and of each touched resource's service state, no value", async () => {
    const saved = await editedAndSaved();
    assert.deepEqual(
      saved.changes.map((c) => [c.action, c.file, c.fields]),
      [
        ['update', 'integrations/crm.json', ['system']],
        ['update', 'ai_prompts/greeting.json', ['system']],
        ['create', 'ai_prompts/new.json', ['name', 'system']],
        ['delete', 'ai_prompts/closing.json', []],
      ],
    );
    assert.ok(
      saved.changes.every((c) => (c.action === 'create') === (c.service === undefined)),
      'a service state for each existing resource',
    );
    assert.ok(
      'convai-tenant.json' in saved.files &&
        'ai_prompts/greeting.system.md' in saved.files &&
        !('ai_prompts/closing.json' in saved.files),
    );
    const text = formatSavedPlan(saved);
    for (const value of [SECRET, 'Say hello warmly.', 'New text.', service.adminToken])
      assert.ok(!text.includes(value), `${value} is in the saved plan`);
    assert.deepEqual(parseSavedPlan(text, 'plan.json'), saved);
    assert.equal(formatSavedPlan(parseSavedPlan(text, 'plan.json')), text, 'the same plan, the same bytes');
  });

  it('verifies into a plan that a push sends exactly, in the saved order, whatever changed elsewhere on the service', async () => {
    const saved = await editedAndSaved();
    await client.update(kindById('tenant'), tenantId, { name: 'Renamed elsewhere' });
    await client.create(prompts, { name: 'Unrelated' }, tenantId);
    const plan = await verifySavedPlan(client, io, saved, { file: 'plan.json' });
    const result = await push(client, io, plan);
    assert.deepEqual(
      result.applied.map((c) => [c.action, c.file]),
      saved.changes.map((c) => [c.action, c.file]),
    );
    assert.equal((await client.get(prompts, greeting, tenantId)).system, 'Say hello warmly.');
  });

  it('refuses after a file was edited, added or removed, naming each, before any request', async () => {
    const saved = await editedAndSaved();
    io.files.set('ai_prompts/greeting.system.md', 'Say hello coldly.');
    io.files.set('ai_prompts/other.json', JSON.stringify({ name: 'Other' }));
    io.files.delete('ai_prompts/new.json');
    const requests = service.requests.list().length;
    await assert.rejects(verifySavedPlan(client, io, saved, { file: 'plan.json' }), (error: unknown) => {
      assert.ok(error instanceof SavedPlanRefused);
      assert.deepEqual(error.moved, [
        'ai_prompts/greeting.system.md edited',
        'ai_prompts/new.json removed',
        'ai_prompts/other.json added',
      ]);
      assert.match(error.message, /^Nothing was sent: the folder changed since plan\.json was made/);
      return true;
    });
    assert.equal(service.requests.list().length, requests, 'no request');
  });

  it('ignores READMEs and dotfiles, where the saved plan itself may live', async () => {
    const saved = await editedAndSaved();
    io.files.set('.plan.json', formatSavedPlan(saved));
    io.files.set('README.md', '# notes');
    await verifySavedPlan(client, io, saved, { file: '.plan.json' });
  });

  it("holds a file the manifest lists whatever its name (an older pull's README-named one), and is never written over it", async () => {
    // As an older version named the file of a prompt called "README".
    for (const [from, to] of [
      ['ai_prompts/greeting.json', 'ai_prompts/readme.json'],
      ['ai_prompts/greeting.system.md', 'ai_prompts/readme.system.md'],
    ] as const) {
      io.files.set(to, io.files.get(from) as string);
      io.files.delete(from);
    }
    io.files.set(
      'convai-tenant.json',
      (io.files.get('convai-tenant.json') as string).replace('"ai_prompts/greeting.json"', '"ai_prompts/readme.json"'),
    );
    const manifest = (await readManifest(io)) as Manifest;
    assert.ok(manifest.resources.some((e) => e.id === greeting && e.file === 'ai_prompts/readme.json'));
    io.files.set('ai_prompts/closing.system.md', 'Say goodbye warmly.');
    const plan = await planPush(client, io);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file]),
      [['update', 'ai_prompts/closing.json']],
      'the README-named file is no delete',
    );
    const saved = await savePlan(plan, io);
    assert.ok(
      'ai_prompts/readme.json' in saved.files && 'ai_prompts/readme.system.md' in saved.files,
      Object.keys(saved.files).join(', '),
    );
    io.files.set('ai_prompts/readme.system.md', 'Say hello coldly.');
    await assert.rejects(
      verifySavedPlan(client, io, saved, { file: 'plan.json' }),
      (error: unknown) =>
        error instanceof SavedPlanRefused && error.moved.join() === 'ai_prompts/readme.system.md edited',
    );
    const folder = path.resolve('tenant');
    assert.match(
      savedPlanPlaceProblem(folder, path.join(folder, 'ai_prompts', 'readme.json'), manifest) ?? '',
      /is inside the folder/,
    );
    assert.equal(
      savedPlanPlaceProblem(folder, path.join(folder, 'ai_prompts', 'README.plan.json'), manifest),
      undefined,
      'a README it does not list is an extra',
    );
  });

  it('refuses after the service changed or deleted a resource in the plan, naming it; others may change', async () => {
    const saved = await editedAndSaved();
    await client.update(prompts, greeting, { description: 'changed by a colleague' }, tenantId);
    await client.delete(prompts, closing, tenantId);
    await client.create(prompts, { name: 'Unrelated' }, tenantId);
    await assert.rejects(verifySavedPlan(client, io, saved, { file: 'plan.json' }), (error: unknown) => {
      assert.ok(error instanceof SavedPlanRefused);
      assert.equal(error.moved.length, 2, error.message);
      assert.match(
        error.message,
        /ai_prompts\/greeting\.json \(ai_prompts \d+ "Greeting"\): changed on the service since the pull \(description\)/,
      );
      assert.match(
        error.message,
        /ai_prompts\/closing\.json \(ai_prompts \d+ "Closing"\): already deleted on the service/,
      );
      return true;
    });
  });

  it('refuses a plan of another tenant or service, and a file that is no saved plan or of another version', async () => {
    const saved = await editedAndSaved();
    await assert.rejects(
      verifySavedPlan(client, io, { ...saved, tenantId: tenantId + 1 }, { file: 'plan.json' }),
      (error: unknown) => error instanceof SavedPlanError && /plan\.json is a plan of tenant \d+/.test(error.message),
    );
    assert.throws(
      () => parseSavedPlan('{"changes": []}', 'p.json'),
      /p\.json is not a saved plan \(it has no "convaiSavedPlan"\)/,
    );
    assert.throws(
      () => parseSavedPlan('{"convaiSavedPlan": 3}', 'p.json'),
      /p\.json: convaiSavedPlan is 3, but this version reads saved plans of version 2/,
    );
    assert.throws(() => parseSavedPlan('not json', 'p.json'), /p\.json is not a saved plan: not valid JSON/);
  });

  type PlanFile = Record<string, unknown> & { changes: Array<Record<string, unknown>> };
  /** The saved plan's file as JSON, edited by `edit` as a hand would, written back as plan --out lays it out. */
  function editedFile(saved: SavedPlan, edit: (plan: PlanFile) => void): string {
    const plan = JSON.parse(formatSavedPlan(saved)) as PlanFile;
    edit(plan);
    return `${JSON.stringify(plan, null, 2)}\n`;
  }

  /** A refusal of the push (exit 1 in the CLI) naming the plan's file as altered, for `reason`, not the folder or the service. */
  const alteredBecause =
    (reason: string) =>
    (error: unknown): boolean => {
      assert.ok(error instanceof PushRefused && !(error instanceof SavedPlanRefused), String(error));
      assert.equal(
        error.message,
        `Nothing was sent: p.json was altered after it was saved (${reason}), so it is not the plan that was reviewed; save the plan again, review it and push that one.`,
      );
      return true;
    };

  it("carries its digest second, after the format's version", async () => {
    assert.match(
      formatSavedPlan(await editedAndSaved()),
      /^\{\n {2}"convaiSavedPlan": 2,\n {2}"digest": "[0-9a-f]{64}",\n {2}"baseUrl": /,
    );
  });

  const edits: Array<[string, (plan: PlanFile) => void, string]> = [
    [
      'a change listed twice',
      (plan) => plan.changes.push(plan.changes[1] as Record<string, unknown>),
      'changes[4] lists ai_prompts/greeting.json again, as changes[1] does',
    ],
    [
      'a change of the same resource under another file',
      (plan) => plan.changes.push({ ...plan.changes[1], file: 'ai_prompts/other.json' }),
      'changes[4] lists ai_prompts GREETING_ID again, as changes[1] does',
    ],
    [
      'a name edited',
      (plan) => Object.assign(plan.changes[1] as object, { name: 'Greeting (approved)' }),
      'its content does not match its "digest": a value in it was edited',
    ],
    [
      'an unknown key',
      (plan) => Object.assign(plan, { approvedBy: 'me' }),
      'it holds "approvedBy", which a saved plan does not',
    ],
    [
      'an unknown key in a change',
      (plan) => Object.assign(plan.changes[0] as object, { values: { system: 'x' } }),
      'changes[0] holds "values", which a saved change does not',
    ],
    ['the digest removed', (plan) => delete plan.digest, 'it has no "digest"'],
    ['a mistyped digest', (plan) => Object.assign(plan, { digest: 42 }), '"digest" must be a SHA-256 hash in hex'],
    [
      'an update without its service state',
      (plan) => delete plan.changes[1]?.service,
      'changes[1].service must be given for an update or a delete, and left out for a create',
    ],
    [
      'a mistyped id',
      (plan) => Object.assign(plan.changes[1] as object, { id: '7' }),
      'changes[1].id must be an integer',
    ],
    [
      'a field listed twice',
      (plan) => Object.assign(plan.changes[1] as object, { fields: ['system', 'system'] }),
      'changes[1].fields lists "system" twice',
    ],
    [
      'an action that is none',
      (plan) => Object.assign(plan.changes[0] as object, { action: 'conflict' }),
      'changes[0].action must be one of create, update, delete',
    ],
  ];
  for (const [what, edit, reason] of edits) {
    it(`refuses a plan with ${what} as altered, naming the field`, async () => {
      const saved = await editedAndSaved();
      assert.throws(
        () => parseSavedPlan(editedFile(saved, edit), 'p.json'),
        alteredBecause(reason.replace('GREETING_ID', String(greeting))),
      );
    });
  }

  it("refuses a plan with one byte changed as altered (a hex digit of a file's hash), not as a folder that moved", async () => {
    const text = formatSavedPlan(await editedAndSaved());
    const oneByte = text.replace(
      /("ai_prompts\/greeting\.system\.md": ")(.)/,
      (_, key: string, digit: string) => `${key}${digit === '0' ? '1' : '0'}`,
    );
    assert.equal(oneByte.length, text.length);
    assert.notEqual(oneByte, text);
    assert.throws(
      () => parseSavedPlan(oneByte, 'p.json'),
      alteredBecause('its content does not match its "digest": a value in it was edited'),
    );
  });

  it('reads the digest of the content, not of its layout: keys in another order, other indentation, a byte-order mark', async () => {
    const saved = await editedAndSaved();
    const plan = JSON.parse(formatSavedPlan(saved)) as Record<string, unknown>;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(plan).reverse()));
    assert.deepEqual(parseSavedPlan(reordered, 'p.json'), saved);
    assert.deepEqual(parseSavedPlan(`\uFEFF${formatSavedPlan(saved).replace(/\n/g, '\r\n')}`, 'p.json'), saved);
  });

  it('refuses a plan saved by the earlier version, without a digest, saying to save it again', async () => {
    const saved = await editedAndSaved();
    const earlier = editedFile(saved, (plan) => {
      plan.convaiSavedPlan = 1;
      delete plan.digest;
    });
    assert.throws(
      () => parseSavedPlan(earlier, 'p.json'),
      (error: unknown) => {
        assert.ok(error instanceof SavedPlanError, String(error));
        assert.match(
          error.message,
          /^p\.json was saved by an earlier version, without the digest .*; save the plan again with this version \(plan --out\), review it and push that one$/,
        );
        return true;
      },
    );
  });

  it('is not saved while the plan holds a conflict or a problem', async () => {
    io.files.set('ai_prompts/greeting.system.md', 'Mine.');
    await client.update(prompts, greeting, { system: 'Theirs.' }, tenantId);
    await assert.rejects(
      savePlan(await planPush(client, io), io),
      /The plan holds 1 conflict, which a push would refuse, so it was not saved/,
    );
  });

  it('may be written outside the folder or as a dotfile in it', () => {
    const folder = path.resolve('tenant');
    assert.equal(savedPlanPlaceProblem(folder, path.resolve('plan.json')), undefined);
    assert.equal(savedPlanPlaceProblem(folder, path.join(folder, '.plan.json')), undefined);
    assert.match(
      savedPlanPlaceProblem(folder, path.join(folder, 'plan.json')) ?? '',
      /is inside the folder, where any other file is a problem of the plan/,
    );
    assert.match(savedPlanPlaceProblem(folder, folder) ?? '', /is the folder itself/);
  });
});
