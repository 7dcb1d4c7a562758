import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { mapWithLimit } from '../../src/core/concurrency';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { folderLayout } from '../../src/core/tenant/folder-layout';
import { MANIFEST_FILE, type PulledResource } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { resourceBase, slug } from '../../src/core/tenant/resource-paths';
import { localPlan } from '../../src/core/tenant/plan';
import { requestOf } from '../../src/core/tenant/plan-text';
import { PLAN_MARKER, planMarkdown } from '../../src/core/tenant/plan-markdown';
import { problemOfText, problemText } from '../../src/core/tenant/folder-problems';
import { fieldHashes } from '../../src/core/tenant/field-fingerprints';
import { folderValues, KEPT_ON_SERVICE, wireValue } from '../../src/core/tenant/folder-values';
import { resourceFiles } from '../../src/core/tenant/resource-files';
import { readResource, writeResource } from '../../src/core/tenant/representation';

const prompt = kindById('prompt');
const integration = kindById('integration');
const agent = kindById('agent');

const promptDetail: JsonObject = {
  id: 2,
  name: 'Order Triage',
  description: 'd',
  prompt_type: 1,
  group: 'support',
  mode: 1,
  user_prompt: 'Classify {{message}}',
  system: 'Line one\r\n\r\n## Rules\n- ünïcode 👋\n',
  assistant: null,
  user_name: null,
  temparature: 0.2,
  max_tokens: 300,
  ai_model: 'gpt-4o',
  settings: '{"language": "en"}',
  function_defs: '[{"type":"function","name":"f"}]',
  next_prompt_id: 3,
  exit_prompt_id: null,
  prompt_mode: 1,
  voice: null,
  initial_announcement: null,
  initial_response: 'Hi',
  tenant_id: 1,
};

describe('tenant folders: how a resource lives in files', () => {
  it('reads a problem back from its text, placed or of a whole file, for a list that opens it there', () => {
    const placed = {
      file: 'ai_prompts/a.json',
      line: 3,
      column: 7,
      message: 'max_tokens: must be an integer: not "x"',
    };
    assert.deepEqual(problemOfText(problemText(placed)), placed);
    assert.deepEqual(problemOfText('intent/: no kind of that name; did you mean "intents/"?'), {
      file: 'intent/',
      message: 'no kind of that name; did you mean "intents/"?',
    });
  });

  it("puts a prompt's texts in Markdown siblings, its JSON strings parsed, no service-owned field", () => {
    const files = resourceFiles(prompt, 2, folderValues(prompt, promptDetail), 'ai_prompts/order-triage');
    assert.deepEqual([...files.keys()].sort(), [
      'ai_prompts/order-triage.json',
      'ai_prompts/order-triage.system.md',
      'ai_prompts/order-triage.user_prompt.md',
    ]);
    assert.equal(
      files.get('ai_prompts/order-triage.system.md'),
      `${String(promptDetail.system)}\n`,
      'byte for byte, then one newline',
    );
    const json = JSON.parse(files.get('ai_prompts/order-triage.json') ?? '') as JsonObject;
    assert.equal(json.id, 2);
    assert.deepEqual(json.settings, { language: 'en' });
    assert.equal(json.assistant, null, 'null stays in the JSON file');
    assert.ok(!('tenant_id' in json) && !('system' in json));
  });

  it('reads the files back into the same values, so an unedited pull plans nothing', async () => {
    const io = new MemoryFolder();
    const values = folderValues(prompt, promptDetail);
    await writeResource(io, prompt, 2, values, 'ai_prompts/order-triage');
    const read = await readResource(prompt, io, 'ai_prompts/order-triage');
    assert.ok(read.ok);
    assert.equal(read.id, 2);
    assert.deepEqual(fieldHashes(read.values), fieldHashes(values));
  });

  it("reads a text file less one final newline: appended lines stay apart, an editor's final newline changes nothing, a final newline of the text survives", async () => {
    const io = new MemoryFolder();
    const values = folderValues(prompt, { ...promptDetail, system: 'One line.' });
    await writeResource(io, prompt, 2, values, 'ai_prompts/p');
    assert.equal(io.files.get('ai_prompts/p.system.md'), 'One line.\n');
    const system = async (): Promise<unknown> => {
      const read = await readResource(prompt, io, 'ai_prompts/p');
      assert.ok(read.ok);
      return read.values.system;
    };
    await io.write('ai_prompts/p.system.md', 'One line.\nMore.\n');
    assert.equal(await system(), 'One line.\nMore.', 'echo >> starts a line of its own');
    await io.write('ai_prompts/p.system.md', 'Pulled before the rule.');
    assert.equal(await system(), 'Pulled before the rule.', 'a file without a final newline reads as it is');
    await writeResource(io, prompt, 2, { ...values, system: 'Ends in a newline.\n' }, 'ai_prompts/p');
    assert.equal(io.files.get('ai_prompts/p.system.md'), 'Ends in a newline.\n\n');
    assert.equal(await system(), 'Ends in a newline.\n');
    await writeResource(io, prompt, 2, { ...values, system: '' }, 'ai_prompts/p');
    assert.equal(await system(), '');
  });

  it('removes a text sibling when the text becomes null', async () => {
    const io = new MemoryFolder();
    await writeResource(io, prompt, 2, folderValues(prompt, promptDetail), 'ai_prompts/p');
    await writeResource(io, prompt, 2, folderValues(prompt, { ...promptDetail, system: null }), 'ai_prompts/p');
    assert.equal(io.files.has('ai_prompts/p.system.md'), false);
  });

  it('keeps credentials on the service: a marker in the file, never the value', () => {
    const values = folderValues(integration, {
      id: 1,
      name: 'CRM',
      system: 'x',
      technical_id: 't',
      tec_params: { api_key: 'sk-secret', model: 'm', nested: { token: 'tok' } },
      tenant_id: 1,
    });
    assert.deepEqual(values.tec_params, { api_key: KEPT_ON_SERVICE, model: 'm', nested: { token: KEPT_ON_SERVICE } });
    const agentValues = folderValues(agent, {
      id: 5,
      name: 'A',
      configuration: { prompt: [{ name: 'p', prompt: 't', integration: { bearer_token: 'bearer-secret' } }] },
    });
    assert.ok(!JSON.stringify(agentValues).includes('bearer-secret'));
  });

  it('sends parsed JSON strings back as compact text', () => {
    assert.equal(wireValue(prompt, 'settings', { language: 'de' }), '{"language":"de"}');
    assert.equal(wireValue(prompt, 'settings', 'not json'), 'not json');
    assert.equal(wireValue(integration, 'tec_params', { a: 1 }) instanceof Object, true);
  });

  it('refuses a file with an unknown field or a bad id, naming the file and the fix', async () => {
    const io = new MemoryFolder(
      new Map([
        ['intents/a.json', '{"id": "x", "name": "a"}'],
        ['intents/b.json', '{"name": "b", "ai_actions": []}'],
      ]),
    );
    const a = await readResource(kindById('intent'), io, 'intents/a');
    assert.ok(!a.ok);
    assert.equal(
      problemText(a.problem),
      "intents/a.json:1:8: id: must be the resource's integer id, or be left out for a new resource",
    );
    const b = await readResource(kindById('intent'), io, 'intents/b');
    assert.ok(!b.ok);
    assert.match(problemText(b.problem), /^intents\/b\.json:1:15: ai_actions: not a field a client may set on intents/);
  });

  it('names files so a person finds them, unique and stable', () => {
    assert.equal(slug('Order Triage'), 'order-triage');
    assert.equal(slug('Grüße / Ñandú'), 'grusse-nandu');
    assert.equal(resourceBase('ai_prompts', 7, '', undefined, new Set()), 'ai_prompts/ai_prompt-7');
    assert.equal(
      resourceBase('ai_prompts', 7, 'Greeting', undefined, new Set(['ai_prompts/greeting'])),
      'ai_prompts/greeting-7',
    );
    assert.equal(
      resourceBase('ai_prompts', 7, 'Renamed', 'ai_prompts/greeting.json', new Set()),
      'ai_prompts/greeting',
      'stable across pulls',
    );
  });

  it('names no file as something a reader of the folder takes for another: a README, a device, the manifest', () => {
    assert.equal(resourceBase('ai_prompts', 7, 'README Guide', undefined, new Set()), 'ai_prompts/7-readme-guide');
    assert.equal(resourceBase('datasources', 8, 'Readme', undefined, new Set()), 'datasources/8-readme');
    assert.equal(
      resourceBase('ai_prompts', 7, 'readme.md', undefined, new Set(['ai_prompts/7-readme-md'])),
      'ai_prompts/7-readme-md-7',
    );
    assert.equal(resourceBase('ai_prompts', 7, 'Con', undefined, new Set()), 'ai_prompts/con-7');
    assert.equal(resourceBase('ai_prompts', 7, 'Convai Tenant', undefined, new Set()), 'ai_prompts/convai-tenant-7');
    assert.equal(
      resourceBase('ai_prompts', 7, 'Read me', undefined, new Set()),
      'ai_prompts/read-me',
      'a name that only looks alike keeps its slug',
    );
  });

  it("names every resource so the folder reads it as that resource's file and text parts alone, with no manifest to say so", () => {
    const names = [
      'README',
      'readme.md',
      'README Guide',
      'ReadMe',
      'READMEs',
      '.hidden',
      '..',
      '.convai-tenant.journal',
      '.git',
      'convai-tenant',
      'Convai Tenant.json',
      'tenant',
      'intents',
      'ai_prompts',
      'CON',
      'con.txt',
      'LPT1',
      'COM¹',
      'nul ',
      'aux.',
      'conin$',
      'Greeting.system.md',
      'x.user_prompt',
      'Orders.prompttest.json',
      'Orders.judgetest.json',
      'call.apirequest.json',
      '!!!',
      '',
      '  ',
      'Grüße',
      'ＲＥＡＤＭＥ',
      'r\u0065adme',
      'Ｃｏｎ',
      'a/b?c#d',
      '../../evil',
      '%%{init}%%',
      'x'.repeat(80),
    ];
    const taken = new Set<string>();
    for (const [index, name] of names.entries()) {
      const base = resourceBase('ai_prompts', 100 + index, name, undefined, taken);
      taken.add(base.toLowerCase());
      const file = `${base}.json`;
      const read = folderLayout([
        { path: 'ai_prompts', type: 'folder' },
        { path: file, type: 'file' },
        { path: `${base}.system.md`, type: 'file' },
      ]);
      assert.deepEqual(
        read,
        { resources: [{ segment: 'ai_prompts', base, file, parts: ['system'] }], problems: [] },
        `"${name}" as ${file}`,
      );
      assert.notEqual(file.slice(file.indexOf('/') + 1), MANIFEST_FILE, `"${name}" as ${file}`);
      assert.match(
        file,
        /^ai_prompts\/[a-z0-9][a-z0-9_-]*\.json$/,
        `"${name}" as ${file}: no suffix a reader looks for`,
      );
    }
    assert.equal(taken.size, names.length, 'no two are one file on Windows and macOS');
  });
});

describe('tenant folders: the plan from the folder alone', () => {
  async function pulledFolder(): Promise<MemoryFolder> {
    const io = new MemoryFolder();
    const resources: PulledResource[] = [];
    const add = async (
      segment: 'ai_prompts' | 'intents' | 'ai_actions',
      kind: ReturnType<typeof kindById>,
      detail: JsonObject,
      base: string,
    ): Promise<void> => {
      const values = folderValues(kind, detail);
      await writeResource(io, kind, detail.id as number, values, base);
      resources.push({
        segment,
        id: detail.id as number,
        file: `${base}.json`,
        name: String(detail.name),
        fields: fieldHashes(values),
      });
    };
    await add('ai_prompts', prompt, promptDetail, 'ai_prompts/order-triage');
    await add(
      'intents',
      kindById('intent'),
      { id: 4, name: 'orders', display_name: 'Orders', intent_type: 2, parent_id: null, ai_prompt_id: 2 },
      'intents/orders',
    );
    await add('ai_actions', kindById('action'), { id: 9, name: 'Ping', action_type: 1 }, 'ai_actions/ping');
    await writeManifest(io, { connection: 'local', baseUrl: 'http://127.0.0.1:1', tenantId: 1, resources });
    return io;
  }

  it('finds updates with their fields, creates and deletes; a new prompt comes before the intent that names it by file', async () => {
    const io = await pulledFolder();
    io.files.set('ai_prompts/order-triage.system.md', 'changed');
    io.files.set(
      'intents/refunds.json',
      JSON.stringify({ name: 'refunds', intent_type: 1, parent_id: 4, ai_prompt_id: 'ai_prompts/refund-flow.json' }),
    );
    io.files.set('ai_prompts/refund-flow.json', JSON.stringify({ name: 'Refund flow' }));
    io.files.delete('ai_actions/ping.json');
    const plan = await localPlan(io);
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file, c.fields]),
      [
        ['update', 'ai_prompts/order-triage.json', ['system']],
        ['create', 'ai_prompts/refund-flow.json', ['name']],
        ['create', 'intents/refunds.json', ['name', 'intent_type', 'parent_id', 'ai_prompt_id']],
        ['delete', 'ai_actions/ping.json', []],
      ],
    );
  });

  it('names what it cannot send: an unknown id, a reference to a missing file, a kept credential in a new resource', async () => {
    const io = await pulledFolder();
    io.files.set('intents/stray.json', JSON.stringify({ id: 77, name: 'stray' }));
    io.files.set(
      'intents/dangling.json',
      JSON.stringify({ name: 'dangling', intent_type: 1, ai_prompt_id: 'ai_prompts/nope.json' }),
    );
    io.files.set(
      'integrations/new.json',
      JSON.stringify({ name: 'n', system: 's', technical_id: 't', tec_params: { api_key: KEPT_ON_SERVICE } }),
    );
    const { problems } = await localPlan(io);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(
      problems.join('\n'),
      /intents\/stray\.json:1:7: id: 77 is no Intent pulled into this folder; remove "id"/,
    );
    assert.match(
      problems.join('\n'),
      /intents\/dangling\.json:1:51: ai_prompt_id: names "ai_prompts\/nope\.json", which is no resource file/,
    );
    assert.match(
      problems.join('\n'),
      /integrations\/new\.json:1:69: tec_params\.api_key: a new resource has no value on the service to keep/,
    );
  });

  it('is not a pulled folder without a manifest', async () => {
    await assert.rejects(localPlan(new MemoryFolder()), new RegExp(`no ${MANIFEST_FILE.replace('.', '\\.')}`));
  });
});

describe('tenant folders: the plan as people read it', () => {
  const change = {
    action: 'update' as const,
    segment: 'ai_prompts' as const,
    id: 2,
    name: 'Order Triage',
    fields: ['system'],
    file: 'ai_prompts/order-triage.json',
    values: [{ field: 'system', old: 'a|b', new: 'c' }],
  };

  it("gives each change its request, in the service's paths", () => {
    assert.deepEqual(requestOf(change, 1), { method: 'PUT', path: '/api/v1/ai_prompts/2?tenant_id=1' });
    assert.deepEqual(requestOf({ ...change, action: 'create', id: undefined }, 1), {
      method: 'POST',
      path: '/api/v1/ai_prompts?tenant_id=1',
    });
    assert.deepEqual(requestOf({ ...change, segment: 'tenants', id: 1 }, 1), {
      method: 'PUT',
      path: '/api/v1/tenants/1',
    });
    assert.equal(requestOf({ ...change, action: 'conflict' }, 1), undefined);
  });

  it('previews the plan as the comment shows it, titled for the folder, each change open with its request', () => {
    const manifest = { connection: 'local', baseUrl: 'http://x', tenantId: 1, resources: [] };
    const values = [{ field: 'description', old: 'a|b', new: 'c' }];
    const text = planMarkdown(
      { manifest, changes: [{ ...change, values }], problems: [], notes: [] },
      { preview: { folder: '/tmp/f' } },
    );
    assert.ok(
      text.startsWith(
        '# Push plan: tenant 1 on `local`\n\nFolder `/tmp/f`, service `http://x`. 1 change, sent in this order.\n',
      ),
      text,
    );
    assert.ok(
      text.includes(
        '<details open><summary>update AI Prompt <code>Order Triage</code> (id 2) in <code>ai_prompts/order-triage.json</code></summary>',
      ),
      'the preview shows each change open',
    );
    assert.ok(text.includes('`PUT /api/v1/ai_prompts/2?tenant_id=1`'), text);
    assert.ok(text.includes('- `description`: `"a|b"` → `"c"`'), text);
    assert.ok(!text.includes(PLAN_MARKER), 'a preview is no comment');
  });

  it('shows names, files, reasons, problems and notes as code they cannot close, never as Markdown', () => {
    const manifest = { connection: 'local', baseUrl: 'http://x', tenantId: 1, resources: [] };
    const hostile = [
      { ...change, action: 'delete' as const, name: '__proto__', file: 'ai_prompts/__proto__.json', values: [] },
      {
        ...change,
        action: 'conflict' as const,
        name: '[click](command:convai.refreshTree)',
        reason: 'see **here**',
        values: [],
      },
      { ...change, name: 'a ``tick``\n# <b>heading</b>' },
    ];
    const text = planMarkdown(
      { manifest, changes: hostile, problems: ['<b>bold</b>'], notes: ['_note_'] },
      { preview: { folder: '/tmp/f' } },
    );
    assert.ok(
      text.includes(
        '<summary>delete AI Prompt <code>__proto__</code> (id 2) in <code>ai_prompts/__proto__.json</code></summary>',
      ),
      text,
    );
    assert.ok(
      text.includes('<summary>conflict AI Prompt <code>[click](command:convai.refreshTree)</code> (id 2)'),
      text,
    );
    assert.ok(text.includes('**Conflict:** `see **here**`'), text);
    assert.ok(text.includes('<code>a ``tick``\\n# &lt;b&gt;heading&lt;/b&gt;</code>'), text);
    assert.ok(text.includes('- `<b>bold</b>`') && text.includes('- `_note_`'), text);
    assert.ok(!/^# <b>heading/m.test(text), 'a line break in a name starts no line of its own');
  });
});

describe('bounded concurrency', () => {
  it('never runs more than the limit at once, and keeps the order of results', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => setImmediate(resolve));
      running--;
      return n * 10;
    });
    assert.deepEqual(results, [50, 10, 40, 20, 30, 0]);
    assert.equal(most, 2);
  });
});
