import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import type { Manifest } from '../../src/core/tenant/manifest';
import { planPush, type PlannedChange, type Plan } from '../../src/core/tenant/plan';
import { codeSpan } from '../../src/core/markdown-code';
import { MARKDOWN_LIMIT, PLAN_MARKER, planMarkdown } from '../../src/core/tenant/plan-markdown';
import { pullIntoMemory } from '../../src/core/tenant/promote';
import { startService } from '../service/server';

const manifest: Manifest = { connection: 'local', baseUrl: 'https://convai.example', tenantId: 7, resources: [] };
const planOf = (
  changes: PlannedChange[],
  problems: string[] = [],
  notes: string[] = [],
): Pick<Plan, 'manifest' | 'changes' | 'problems' | 'notes'> => ({ manifest, changes, problems, notes });
const update = (file: string, values: PlannedChange['values'], name = file): PlannedChange => ({
  action: 'update',
  segment: 'ai_prompts',
  id: 1,
  name,
  file,
  fields: values.map((v) => v.field),
  values,
});

/**
 * The comment as a reader's Markdown sees its structure: every fence closed by its own kind and length (never inside
 * another), every `<details>` closed, and outside fences and code spans no HTML but the comment's own tags.
 */
function structure(md: string): { fences: number; details: number; strayHtml: string[] } {
  let open: string | undefined;
  let fences = 0;
  let depth = 0;
  let details = 0;
  const strayHtml: string[] = [];
  for (const line of md.split('\n')) {
    if (open !== undefined) {
      const close = /^ {0,3}(`{3,})\s*$/.exec(line);
      if (close && (close[1] as string).length >= open.length) open = undefined;
      continue;
    }
    const start = /^ {0,3}(`{3,})[^`]*$/.exec(line);
    if (start) {
      open = start[1];
      fences += 1;
      continue;
    }
    if (line.startsWith('<details>')) {
      depth += 1;
      details += 1;
    }
    if (line === '</details>') depth -= 1;
    assert.ok(depth === 0 || depth === 1, 'details never nest nor close twice');
    const outsideCode = line.replace(/(`+)(?:(?!\1)[\s\S])*?[^`]\1(?!`)/g, '');
    strayHtml.push(
      ...(outsideCode.match(/<[^>]*>?/g) ?? []).filter(
        (tag) => !/^<(\/?(details|summary|code)|!-- convai-plan --)>$/.test(tag),
      ),
    );
  }
  assert.equal(open, undefined, 'no fence is left open');
  assert.equal(depth, 0, 'every <details> is closed');
  return { fences, details, strayHtml };
}

describe('plan as a pull request comment (Markdown)', () => {
  it('starts with its marker and a summary line of counts per action, problems first, then notes, then changes', () => {
    const md = planMarkdown(
      planOf(
        [
          update('ai_prompts/a.json', [{ field: 'max_tokens', old: 100, new: 200 }]),
          {
            action: 'delete',
            segment: 'intents',
            id: 4,
            name: 'Old',
            file: 'intents/old.json',
            fields: [],
            values: [],
          },
        ],
        ['ai_prompts/b.json:2:3: max_tokens: must be an integer'],
        ['ai_prompts/c.json: already deleted on the service'],
      ),
      { notes: ['intents/x.json: changed on the service since the pull (description)'] },
    );
    const lines = md.split('\n');
    assert.equal(lines[0], PLAN_MARKER);
    assert.match(
      md,
      /^\*\*2 changes:\*\* 0 creates, 1 update, 1 delete, 0 conflicts; 1 problem, so a push sends nothing until they are resolved\.$/m,
    );
    const at = (text: string): number => md.indexOf(text);
    assert.ok(
      at('#### Problems') > 0 && at('#### Problems') < at('#### Notes') && at('#### Notes') < at('#### Changes'),
      md,
    );
    assert.ok(
      at('already deleted on the service') < at('changed on the service since the pull (description)'),
      "the plan's notes, then the given ones",
    );
    assert.match(
      md,
      /<details><summary>delete Intent <code>Old<\/code> \(id 4\) in <code>intents\/old\.json<\/code><\/summary>/,
    );
    assert.ok(md.endsWith('</details>\n'));
    assert.deepEqual(structure(md).strayHtml, []);
    assert.equal(planMarkdown(planOf([])).split('\n')[3], '**No change in the folder since the pull.**');
  });

  it('shows a changed text as a unified diff and other fields as old → new', () => {
    const md = planMarkdown(
      planOf([
        update(
          'ai_prompts/greeting.json',
          [
            {
              field: 'system',
              old: 'Say hello.\nBe brief.\nEnd politely.\nNever guess.\nAsk.',
              new: 'Say hello warmly.\nBe brief.\nEnd politely.\nNever guess.\nAsk.',
            },
            { field: 'temparature', old: 0.2, new: 0.7 },
            { field: 'description', old: 'one\ntwo', new: 'one\n2' },
          ],
          'Greeting',
        ),
      ]),
    );
    assert.ok(
      md.includes(
        '```diff\n@@ -1,4 +1,4 @@\n-Say hello.\n+Say hello warmly.\n Be brief.\n End politely.\n Never guess.\n```',
      ),
      md,
    );
    assert.ok(md.includes('- `temparature`: `0.2` → `0.7`'), md);
    assert.ok(md.includes('```diff\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n```'), 'any multi-line string is a diff too');
    assert.equal(structure(md).fences, 2);
    // A prompt's text is named by the Markdown file it changed in; another field by its name, in the JSON file.
    assert.ok(md.includes('`system` in `ai_prompts/greeting.system.md`:\n\n```diff'), md);
    assert.ok(md.includes('`description`:\n\n```diff'), md);
  });

  it("shows a create's text as added lines and its other fields as their values", () => {
    const md = planMarkdown(
      planOf([
        {
          action: 'create',
          segment: 'ai_prompts',
          name: 'New',
          file: 'ai_prompts/new.json',
          fields: ['name', 'system'],
          values: [
            { field: 'name', new: 'New' },
            { field: 'system', new: 'a\nb' },
          ],
        },
      ]),
    );
    assert.ok(md.includes('- `name`: `"New"`\n'), md);
    assert.ok(md.includes('```diff\n@@ -0,0 +1,2 @@\n+a\n+b\n```'), md);
  });

  it('lets no name or value break the comment, add HTML or close a fence', () => {
    const hostile = '</code></summary></details>\n\n<img src=x onerror=alert(1)> @someone ``` | `';
    const md = planMarkdown(
      planOf(
        [
          update(
            'ai_prompts/x.json',
            [
              {
                field: 'system',
                old: 'ok',
                new: `ok\n\`\`\`\n</details>\n    \`\`\`\`\`\`\n<script>alert(1)</script>\r\`\`\`\``,
              },
              { field: 'group', old: hostile, new: '`' },
              { field: '<b>field</b>', old: null, new: 'x' },
            ],
            hostile,
          ),
          update('ai_prompts/after.json', [{ field: 'max_tokens', old: 1, new: 2 }], 'After'),
        ],
        [hostile],
        [hostile],
      ),
    );
    const { details, strayHtml } = structure(md);
    assert.equal(details, 2, 'both changes have their own section, so nothing closed the first early');
    assert.deepEqual(strayHtml, []);
    assert.ok(
      md.includes(
        '<summary>update AI Prompt <code>&lt;/code&gt;&lt;/summary&gt;&lt;/details&gt;\\n\\n&lt;img src=x onerror=alert(1)&gt; @someone ``` | `</code>',
      ),
      md,
    );
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`x'), '`` `x ``');
    assert.equal(codeSpan(' x '), '`  x  `');
  });

  it("shows a terminal's controls and bidi overrides as escapes, in names, values and diffs alike", () => {
    const name = 'Invoice \u202Egnp.exe \u001b[31mred\u0007 \u009b2J';
    const md = planMarkdown(
      planOf(
        [
          update(
            'ai_prompts/invoice.json',
            [
              {
                field: 'system',
                old: 'Say hi.',
                new: 'Say \u001b]8;;https://evil.example/\u0007hi\u001b]8;;\u0007\r\n\tthen \u2067bye.',
              },
              { field: 'description', old: null, new: name },
            ],
            name,
          ),
        ],
        [name],
        [name],
      ),
    );
    assert.equal(
      // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be there
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.exec(md),
      null,
      md,
    );
    assert.ok(md.includes('<code>Invoice \\u202Egnp.exe \\u001B[31mred\\u0007 \\u009B2J</code>'), md);
    assert.ok(md.includes('+Say \\u001B]8;;https://evil.example/\\u0007hi\\u001B]8;;\\u0007␍'), md);
    assert.ok(md.includes('+\tthen \\u2067bye.'), 'a tab in a text stays');
  });

  it('masks a URL password in what is not a value (names, problems, notes, the service)', () => {
    const url = 'postgres://admin:url-password-123@db.example/x';
    const md = planMarkdown(
      {
        ...planOf(
          [update('ai_prompts/a.json', [{ field: 'max_tokens', old: 1, new: 2 }], url)],
          [`a.json: ${url}`],
          [url],
        ),
        manifest: { ...manifest, baseUrl: 'https://user:base-password@convai.example' },
      },
      { notes: [url] },
    );
    assert.ok(!md.includes('url-password-123') && !md.includes('base-password'), md);
    assert.ok(md.includes('postgres://admin:••••••••@db.example/x'));
  });

  it('stays within 60,000 characters, leaving out the largest sections whole and naming them by file', () => {
    const big = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i} of a long prompt`).join('\n');
    const changes = [
      update('ai_prompts/huge.json', [{ field: 'system', old: '', new: big(4_000) }]),
      ...Array.from({ length: 40 }, (_, i) =>
        update(`ai_prompts/p${String(i).padStart(2, '0')}.json`, [
          { field: 'system', old: big(30), new: `${big(30)}\nmore` },
        ]),
      ),
    ];
    const md = planMarkdown(planOf(changes));
    assert.ok(md.length <= MARKDOWN_LIMIT, `${md.length} characters`);
    const { details } = structure(md);
    assert.equal(details, 40, 'every small change is kept, whole');
    assert.match(md, /\*\*Left out\*\* to keep this comment within 60,000 characters, 1 change/);
    assert.ok(md.includes('- `ai_prompts/huge.json: update AI Prompt ai_prompts/huge.json`'), md.slice(-600));
    assert.ok(!md.includes('line 3999 of a long prompt'));
  });

  it('names what it left out within its share when there are thousands of changes', () => {
    const changes = Array.from({ length: 3_000 }, (_, i) =>
      update(`ai_prompts/p${i}.json`, [{ field: 'system', old: 'a', new: `b ${i}` }]),
    );
    const md = planMarkdown(
      planOf(
        changes,
        Array.from(
          { length: 2_000 },
          (_, i) => `ai_prompts/q${i}.json:1:1: name: a problem of some length to fill the share`,
        ),
      ),
    );
    assert.ok(md.length <= MARKDOWN_LIMIT, `${md.length} characters`);
    structure(md);
    assert.match(md, /^- … and \d+ more \(run plan in a terminal to see them all\)$/m);
    assert.ok(
      (md.match(/^- … and \d+ more/gm) ?? []).length === 2,
      'the problems and the left-out changes are both cut to their share',
    );
  });

  it('gives the same bytes for the same plan', () => {
    const make = (): ReturnType<typeof planOf> =>
      planOf(
        Array.from({ length: 200 }, (_, i) =>
          update(`ai_prompts/p${i}.json`, [
            { field: 'system', old: 'x\n'.repeat(i), new: 'y\n'.repeat(i) },
            { field: 'settings', old: { a: i }, new: { a: i + 1 } },
          ]),
        ),
        ['a problem'],
        ['a note'],
      );
    assert.equal(planMarkdown(make()), planMarkdown(make()));
  });
});

describe('plan as a pull request comment, from a real plan', () => {
  it('shows the diff and old → new, and never a credential or a URL password', async () => {
    const service = await startService({ adminToken: 'markdown-plan-admin-token' });
    const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    try {
      const tenantId = (await client.create(kindById('tenant'), { name: 'Markdown', email: 'm@example.com' }))
        .id as number;
      await client.create(
        kindById('prompt'),
        { name: 'Greeting', system: 'Say hello.\nBe brief.\nEnd politely.', temparature: 0.2 },
        tenantId,
      );
      await client.create(
        kindById('integration'),
        {
          name: 'CRM',
          system: 'http_api',
          technical_id: 'crm',
          url: 'https://crm:url-password-456@crm.example/api',
          tec_params: { api_key: 'sk-live-credential-123', model: 'm1' },
        },
        tenantId,
      );
      const folder = await pullIntoMemory(client, { connection: 'local', baseUrl: service.url, tenantId });
      const edit = (file: string, change: (value: JsonObject) => JsonObject): void => {
        folder.files.set(
          file,
          JSON.stringify(change(JSON.parse(folder.files.get(file) ?? '{}') as JsonObject), null, 2),
        );
      };
      folder.files.set('ai_prompts/greeting.system.md', 'Say hello warmly.\nBe brief.\nEnd politely.');
      edit('ai_prompts/greeting.json', (v) => ({ ...v, temparature: 0.7 }));
      edit('integrations/crm.json', (v) => ({
        ...v,
        url: String(v.url).replace('/api', '/v2'),
        tec_params: { ...(v.tec_params as JsonObject), model: 'm2' },
      }));
      const plan = await planPush(client, folder);
      assert.deepEqual(plan.problems, []);
      const md = planMarkdown(plan);
      assert.ok(
        md.includes('```diff\n@@ -1,3 +1,3 @@\n-Say hello.\n+Say hello warmly.\n Be brief.\n End politely.\n```'),
        md,
      );
      assert.ok(md.includes('- `temparature`: `0.2` → `0.7`'), md);
      assert.match(md, /- `tec_params`: `\{"api_key":"[^"]+","model":"m1"\}` → `\{"api_key":"[^"]+","model":"m2"\}`/);
      assert.ok(md.includes('crm.example/v2'), 'the URL is shown');
      assert.ok(!md.includes('sk-live-credential-123') && !md.includes('url-password-456'), md);
      assert.equal(
        planMarkdown(await planPush(client, folder)),
        md,
        'a second plan of the same folder and service gives the same bytes',
      );
    } finally {
      await client.close();
      await service.close();
    }
  });
});
