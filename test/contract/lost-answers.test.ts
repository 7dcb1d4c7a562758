// The local service's loseAnswer fault: the request is applied, then its answer is lost, so exactly-once pushes
// can be tested against what a time-out or a dropped connection does to a real service.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { runCli, type Run } from './cli-process';
import { raw, rejection, SAMPLES } from './fixtures';
import { startContract, type ContractContext } from './setup';

const prompts = kindById('prompt');
const TENANT = 1;

describe('contract: a fault that applies the request and loses its answer (loseAnswer)', () => {
  let context: ContractContext;
  before(async () => {
    context = await startContract();
  });
  after(async () => {
    await context.close();
  });

  const testRoute = (path: string, method: 'POST' | 'GET', body?: JsonObject) =>
    raw(`${context.service.url}/__test/${path}`, method, context.service.adminToken, body && JSON.stringify(body));
  const loseAnswers = async (...queue: JsonObject[]): Promise<void> => {
    assert.equal((await testRoute('faults', 'POST', { queue })).status, 200);
  };
  const named = async (name: string): Promise<JsonObject[]> =>
    (await context.admin.list(prompts, TENANT)).filter((p) => p.name === name);
  const created = async (name: string): Promise<number> =>
    (await context.admin.create(prompts, { ...SAMPLES.prompt.create, name }, TENANT)).id as number;

  it('creates on a lost POST: the client meets a network error, the listing holds the prompt once', async () => {
    await loseAnswers({ match: 'POST /api/v1/ai_prompts', loseAnswer: true });
    const error = await rejection(
      context.admin.create(prompts, { ...SAMPLES.prompt.create, name: 'Lost create' }, TENANT),
    );
    assert.equal(error.kind, 'network', error.message);
    assert.equal((await named('Lost create')).length, 1);
    const log = (await testRoute('requests', 'GET')).json as { method: string; path: string; fields?: string[] }[];
    assert.deepEqual(
      log.filter((e) => e.method === 'POST' && e.path === '/api/v1/ai_prompts').map((e) => e.fields?.includes('name')),
      [true],
      'logged once, with the fields it sent',
    );
  });

  it('deletes on a lost DELETE', async () => {
    const id = await created('Lost delete');
    await loseAnswers({ match: `DELETE /api/v1/ai_prompts/${id}`, loseAnswer: true });
    assert.equal((await rejection(context.admin.delete(prompts, id, TENANT))).kind, 'network');
    assert.equal((await rejection(context.admin.get(prompts, id, TENANT))).status, 404);
  });

  it('keeps the change of a lost PUT', async () => {
    const id = await created('Lost update');
    await loseAnswers({ match: `PUT /api/v1/ai_prompts/${id}`, loseAnswer: true });
    assert.equal((await rejection(context.admin.update(prompts, id, { description: 'held' }, TENANT))).kind, 'network');
    assert.equal((await context.admin.get(prompts, id, TENANT)).description, 'held');
  });

  it('loses as many answers as its count, then answers again', async () => {
    const id = await created('Lost twice');
    await loseAnswers({ match: `PUT /api/v1/ai_prompts/${id}`, loseAnswer: true, count: 2 });
    for (const description of ['first', 'second']) {
      assert.equal((await rejection(context.admin.update(prompts, id, { description }, TENANT))).kind, 'network');
      assert.equal((await context.admin.get(prompts, id, TENANT)).description, description);
    }
    assert.equal(
      (await context.admin.update(prompts, id, { description: 'answered' }, TENANT)).description,
      'answered',
    );
  });

  it('refuses a loseAnswer that is not a boolean or that an answer of its own contradicts (400)', async () => {
    for (const [fault, message] of [
      [{ loseAnswer: 'yes' }, 'queue[0].loseAnswer must be true or false'],
      [{ loseAnswer: true, status: 503 }, 'queue[0].loseAnswer cannot be combined with status'],
      [
        { loseAnswer: true, drop: true, stallBodyMs: 10 },
        'queue[0].loseAnswer cannot be combined with drop, stallBodyMs',
      ],
    ] as const) {
      assert.deepEqual(await testRoute('faults', 'POST', { queue: [fault] }), {
        status: 400,
        json: { error: message },
      });
    }
    assert.deepEqual((await testRoute('faults', 'POST', {})).json, { latencyMs: 0, pending: 0 }, 'nothing was queued');
  });
});

describe('contract: a push whose answer was lost, then push and plan again (CLI)', function () {
  let context: ContractContext;
  let work: string;
  let tenantId: number;
  let greeting: number;

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: context.service.adminToken });
  const at = (file: string): string => path.join(work, 'folder', ...file.split('/'));
  const readJson = async (file: string): Promise<JsonObject> =>
    JSON.parse(await readFile(at(file), 'utf8')) as JsonObject;
  const loseAnswer = async (match: string): Promise<void> => {
    const answer = await raw(
      `${context.service.url}/__test/faults`,
      'POST',
      context.service.adminToken,
      JSON.stringify({ queue: [{ match, loseAnswer: true }] }),
    );
    assert.equal(answer.status, 200);
  };
  /** A plan with no change and no problem, exit 0. */
  const assertPlanClean = async (): Promise<void> => {
    const planned = await run('plan', '--json', 'folder');
    assert.equal(planned.code, 0, planned.stdout + planned.stderr);
    assert.deepEqual(JSON.parse(planned.stdout), { changes: [], problems: [] });
  };
  const pushed = async (code: number): Promise<Run> => {
    const result = await run('push', 'folder');
    assert.equal(result.code, code, result.stdout + result.stderr);
    return result;
  };

  before(async () => {
    context = await startContract();
  });
  after(async () => {
    await context.close();
  });
  beforeEach(async () => {
    tenantId = (await context.admin.create(kindById('tenant'), { name: 'Lost answers', email: 'lost@example.com' }))
      .id as number;
    greeting = (
      await context.admin.create(prompts, { name: 'Greeting', description: 'pulled', system: 'Say hello.' }, tenantId)
    ).id as number;
    work = await mkdtemp(path.join(tmpdir(), 'convai-lost-'));
    const pulled = await run('pull', '--url', context.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('adopts a lost create of a prompt holding only a name and a description, leaving the folder as a create that was answered', async () => {
    await writeFile(at('ai_prompts/welcome.json'), JSON.stringify({ name: 'Welcome', description: 'new' }));
    await loseAnswer('POST /api/v1/ai_prompts');
    await pushed(1);
    const adopted = await pushed(0);
    assert.match(adopted.stderr, /note: ai_prompts\/welcome\.json: adopted AI Prompt "Welcome" \(id \d+\)/);
    await assertPlanClean();
    // The same file created with its answer: the folder must look the same, id and name aside.
    await writeFile(at('ai_prompts/answered.json'), JSON.stringify({ name: 'Answered', description: 'new' }));
    await pushed(0);
    const { id: adoptedId, name: adoptedName, ...adoptedRest } = await readJson('ai_prompts/welcome.json');
    const { id: answeredId, name: answeredName, ...answeredRest } = await readJson('ai_prompts/answered.json');
    assert.deepEqual(adoptedRest, answeredRest);
    assert.deepEqual([adoptedName, answeredName], ['Welcome', 'Answered']);
    assert.deepEqual(
      (await context.admin.list(prompts, tenantId)).filter((p) => p.name === 'Welcome').map((p) => p.id),
      [adoptedId],
    );
    assert.notEqual(adoptedId, answeredId);
    await assertPlanClean();
  });

  it('records a lost update as pushed: no conflict, nothing sent again, the plan clean', async () => {
    const file = await readJson('ai_prompts/greeting.json');
    await writeFile(at('ai_prompts/greeting.json'), JSON.stringify({ ...file, description: 'edited' }, null, 2));
    await loseAnswer(`PUT /api/v1/ai_prompts/${greeting}`);
    await pushed(1);
    assert.equal(
      (await context.admin.get(prompts, greeting, tenantId)).description,
      'edited',
      'the lost PUT was applied',
    );
    const planned = await run('plan', 'folder');
    assert.equal(planned.code, 0, planned.stdout + planned.stderr);
    assert.doesNotMatch(planned.stdout, /conflict/);
    assert.match(planned.stderr, /note: ai_prompts\/greeting\.json: the service already holds this file's description/);
    await assertPlanClean();
    const again = await pushed(0);
    assert.doesNotMatch(again.stdout, /updated/);
    const log = (await raw(`${context.service.url}/__test/requests`, 'GET', context.service.adminToken)).json as {
      method: string;
      path: string;
    }[];
    assert.equal(
      log.filter((e) => e.method === 'PUT' && e.path === `/api/v1/ai_prompts/${greeting}`).length,
      1,
      'the update was sent once',
    );
  });

  it('names in a conflict only the fields that differ between the folder and the service', async () => {
    const file = await readJson('ai_prompts/greeting.json');
    await writeFile(at('ai_prompts/greeting.json'), JSON.stringify({ ...file, description: 'both' }, null, 2));
    await writeFile(at('ai_prompts/greeting.system.md'), 'Say hello, mine.\n');
    await context.admin.update(prompts, greeting, { description: 'both', system: 'Say hello, theirs.' }, tenantId);
    const planned = await run('plan', '--json', 'folder');
    assert.equal(planned.code, 1);
    assert.deepEqual((JSON.parse(planned.stdout) as { changes: unknown[] }).changes, [
      { action: 'conflict', segment: 'ai_prompts', id: greeting, name: 'Greeting', fields: ['system'] },
    ]);
    assert.match(
      (await run('plan', 'folder')).stdout,
      /conflict: ai_prompts\/greeting\.json: changed on the service since the pull \(system\)$/m,
    );
  });

  it('takes a lost delete as done: removed from the manifest, push exits 0, the plan clean', async () => {
    await unlink(at('ai_prompts/greeting.json'));
    await unlink(at('ai_prompts/greeting.system.md'));
    await loseAnswer(`DELETE /api/v1/ai_prompts/${greeting}`);
    await pushed(1);
    const settled = await pushed(0);
    assert.match(settled.stderr, /note: ai_prompts\/greeting\.json: already deleted on the service/);
    const manifest = JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as {
      resources: Array<{ file: string }>;
    };
    assert.ok(!manifest.resources.some((r) => r.file === 'ai_prompts/greeting.json'), 'no longer in the manifest');
    assert.ok(!existsSync(at('ai_prompts/greeting.system.md')));
    await assertPlanClean();
  });
});
