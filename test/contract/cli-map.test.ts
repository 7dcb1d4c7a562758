/**
 * `convai map` as a child process on a folder pulled from the local service's
 * sample tenant (intents, prompts, actions, agents, functions): the JSON
 * model, Mermaid and DOT that their grammars take, `--changes` marking what
 * the folder's plan would change, and not one request sent, with no token.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { FlowMap } from '../../src/core/flow-map/model';
import { kindById } from '../../src/core/resources';
import { dotLabels, dotProblems, mermaidLabels, mermaidProblems } from '../support/diagram-syntax';
import { runCli, type Run } from './cli-process';
import { useContract, type ContractContext } from './setup';

interface Entry {
  segment: string;
  id: number;
  file: string;
  name: string;
}
const SAMPLE_TENANT = 1;

describe('contract: map (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let entries: Entry[];

  /** No CONVAI_TOKEN and no CONVAI_URL: a map needs neither. */
  const map = (...args: string[]): Promise<Run> => runCli(['map', ...args], work, {});
  const at = (file: string): string => path.join(work, 'folder', ...file.split('/'));
  const node = (segment: string, name: string): string => {
    const found = entries.find((e) => e.segment === segment && e.name === name);
    assert.ok(found, `${segment} "${name}" was pulled`);
    return `${segment}/${found.id}`;
  };
  const logged = async (): Promise<unknown[]> =>
    (await (await request(`${ctx.service.url}/__test/requests`)).body.json()) as unknown[];

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    await request(`${ctx.service.url}/__test/reset`, { method: 'POST' }).then((r) => r.body.text());
    work = await mkdtemp(path.join(tmpdir(), 'convai-map-'));
    const pulled = await runCli(['pull', '--url', ctx.service.url, '--tenant', String(SAMPLE_TENANT), 'folder'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(pulled.code, 0, pulled.stderr);
    entries = (JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as { resources: Entry[] }).resources;
    await request(`${ctx.service.url}/__test/requests`, { method: 'DELETE' }).then((r) => r.body.text());
  });
  afterEach(async () => {
    assert.deepEqual(await logged(), [], 'map sent nothing');
    await rm(work, { recursive: true, force: true });
  });

  it('prints the model as JSON: every pulled resource but the tenant, the references between them, the prompts nothing leads to', async () => {
    const result = await map('--format', 'json', 'folder');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const model = JSON.parse(result.stdout) as FlowMap;
    assert.deepEqual(Object.keys(model), ['nodes', 'edges', 'problems']);
    const pulled = entries
      .filter((e) => e.segment !== 'tenants')
      .map((e) => `${e.segment}/${e.id}`)
      .sort();
    assert.deepEqual(model.nodes.map((n) => n.id).sort(), pulled);
    assert.deepEqual(
      model.nodes.find((n) => n.id === node('ai_prompts', 'Order Triage')),
      { id: node('ai_prompts', 'Order Triage'), segment: 'ai_prompts', name: 'Order Triage' },
    );
    const expected = [
      { from: node('ai_prompts', 'Support Greeting'), to: node('ai_prompts', 'Order Triage'), kind: 'next' },
      { from: node('ai_prompts', 'Support Greeting'), to: node('ai_prompts', 'Human Handoff'), kind: 'exit' },
      { from: node('intents', 'orders'), to: node('ai_prompts', 'Support Flows'), kind: 'intent' },
      { from: node('intents', 'order_status'), to: node('intents', 'orders'), kind: 'parent' },
      {
        from: node('ai_actions', 'Check Order Status'),
        to: node('integrations', 'Order Status API'),
        kind: 'integration',
      },
      { from: node('ai_prompts', 'Order Triage'), to: node('ai_functions', 'get_order_status'), kind: 'function' },
    ];
    for (const edge of expected)
      assert.ok(
        model.edges.some((e) => e.from === edge.from && e.to === edge.to && e.kind === edge.kind),
        `${JSON.stringify(edge)} in ${result.stdout}`,
      );
    assert.ok(
      model.problems.some((p) => p.kind === 'unreachable' && p.node === node('ai_prompts', 'Support Greeting')),
      'no intent leads to the greeting',
    );
    assert.ok(
      !model.problems.some((p) => p.kind === 'unreachable' && p.node === node('ai_prompts', 'Order Triage')),
      'an intent and a prompt lead to triage',
    );
  });

  it('prints Mermaid by default and DOT, each a valid drawing of the same nodes and edges', async () => {
    const model = JSON.parse((await map('--format', 'json', 'folder')).stdout) as FlowMap;
    const mermaid = await map('folder');
    assert.equal(mermaid.code, 0, mermaid.stderr);
    assert.equal(mermaid.stdout, (await map('--format', 'mermaid', 'folder')).stdout);
    assert.deepEqual(mermaidProblems(mermaid.stdout), []);
    assert.equal(mermaid.stdout.split('\n').filter((l) => l.includes(' -->|')).length, model.edges.length);
    assert.match(
      mermaid.stdout,
      new RegExp(
        `^  ${node('ai_prompts', 'Support Greeting').replace('/', '_')} -->\\|"next"\\| ${node('ai_prompts', 'Order Triage').replace('/', '_')}$`,
        'm',
      ),
    );
    const dot = await map('--format', 'dot', 'folder');
    assert.equal(dot.code, 0, dot.stderr);
    assert.deepEqual(dotProblems(dot.stdout), []);
    assert.equal(dot.stdout.split('\n').filter((l) => l.includes(' -> ')).length, model.edges.length);
    assert.ok(
      dot.stdout.includes(`  "${node('intents', 'order_status')}" -> "${node('intents', 'orders')}" [label="parent"];`),
      dot.stdout,
    );
  });

  it('marks with --changes what the plan would change: an edited prompt and a new file, whose dangling reference is drawn', async () => {
    const triage = entries.find((e) => e.name === 'Order Triage') as Entry;
    const system = at(triage.file.replace(/\.json$/, '.system.md'));
    await writeFile(system, `${await readFile(system, 'utf8')}\nAsk again when unsure.`);
    await writeFile(
      at('ai_prompts/new-step.json'),
      JSON.stringify({ name: 'New Step', system: 'Go on.', next_prompt_id: 9999 }, null, 2),
    );
    const json = await map('--changes', '--format', 'json', 'folder');
    assert.equal(json.code, 0, json.stderr);
    const model = JSON.parse(json.stdout) as FlowMap & { changed: string[] };
    assert.deepEqual(model.changed.sort(), ['ai_prompts/new-step.json', node('ai_prompts', 'Order Triage')].sort());
    assert.deepEqual(
      model.problems.filter((p) => p.kind === 'dangling'),
      [{ kind: 'dangling', from: 'ai_prompts/new-step.json', field: 'next_prompt_id', target: 'ai_prompts/9999' }],
    );
    const mermaid = await map('--changes', 'folder');
    assert.deepEqual(mermaidProblems(mermaid.stdout), []);
    const marked = mermaid.stdout.split('\n').filter((l) => l.startsWith('  class ') && l.endsWith(' changed'));
    assert.deepEqual(marked, [
      `  class ${node('ai_prompts', 'Order Triage').replace('/', '_')},ai_prompts_new_step_json changed`,
    ]);
    assert.match(mermaid.stdout, /^ {2}ai_prompts_new_step_json -\.->\|"next_prompt_id"\| missing_ai_prompts_9999$/m);
    const dot = await map('--format', 'dot', '--changes', 'folder');
    assert.deepEqual(dotProblems(dot.stdout), []);
    assert.deepEqual(
      dot.stdout
        .split('\n')
        .filter((l) => l.includes('style=bold'))
        .map((l) => l.trim().split(' ')[0]),
      [`"${node('ai_prompts', 'Order Triage')}"`, '"ai_prompts/new-step.json"'],
    );
    const unmarked = await map('folder');
    assert.doesNotMatch(unmarked.stdout, /changed/, 'without --changes nothing is marked');
  });

  it('says a file that cannot be read is unreadable, naming it, and calls no reference to its resource dangling', async () => {
    const triage = entries.find((e) => e.name === 'Order Triage') as Entry;
    await writeFile(at(triage.file), '{ "id": ');
    const json = await map('--format', 'json', 'folder');
    assert.equal(json.code, 0, json.stderr);
    const model = JSON.parse(json.stdout) as FlowMap;
    assert.ok(!model.nodes.some((n) => n.id === node('ai_prompts', 'Order Triage')));
    assert.deepEqual(
      model.problems.filter((p) => p.kind === 'dangling'),
      [],
      'the greeting and the intent name a resource the tenant holds',
    );
    assert.match(
      json.stderr,
      new RegExp(
        `^note: ${triage.file.replace('.', '\\.')}:1:\\d+: .*; its resource is not on the map, and references to it are not checked$`,
        'm',
      ),
    );
    const mermaid = await map('folder');
    assert.doesNotMatch(mermaid.stdout, /missing_/);
  });

  it('draws one chart whose labels read as the names when names hold Mermaid directives and HTML entities', async () => {
    const names = ['%%{x', '%%{init: {"theme":"dark"}}%%', '&lt;b&gt;'];
    for (const name of names) await ctx.admin.create(kindById('prompt'), { name, system: 'Say hello.' }, SAMPLE_TENANT);
    const pulled = await runCli(['pull', '--url', ctx.service.url, '--tenant', String(SAMPLE_TENANT), 'tricky'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(pulled.code, 0, pulled.stderr);
    await request(`${ctx.service.url}/__test/requests`, { method: 'DELETE' }).then((r) => r.body.text());
    const labels = names.map((name) => `${name} (AI Prompt)`);
    const mermaid = await map('--format', 'mermaid', 'tricky');
    assert.equal(mermaid.code, 0, mermaid.stderr);
    assert.deepEqual(mermaidProblems(mermaid.stdout), []);
    assert.deepEqual(
      mermaidLabels(mermaid.stdout).filter((label) => labels.includes(label)),
      labels,
      mermaid.stdout,
    );
    const dot = await map('--format', 'dot', 'tricky');
    assert.equal(dot.code, 0, dot.stderr);
    assert.deepEqual(dotProblems(dot.stdout), []);
    assert.deepEqual(
      dotLabels(dot.stdout).filter((label) => labels.includes(label)),
      labels,
      dot.stdout,
    );
  });

  it('refuses an unknown format (exit 2), naming the formats, before reading the folder', async () => {
    const result = await map('--format', 'svg', 'no-such-folder');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^--format "svg" is not a format of map: give one of mermaid, dot, json\.$/m);
    assert.equal(result.stdout, '');
  });
});
