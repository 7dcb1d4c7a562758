/**
 * Names and answers that try to act on a terminal, through every command of the command-line tool with its human
 * output: a carriage return that rewrites a line, ESC sequences that recolour or clear, an OSC-8 hyperlink, BEL, a
 * C1 control, a right-to-left override and a line break. Each shows as its escape (`\u001B`, `\r`, `\n`), the tables
 * keep one line per row, and `--json` still carries the names as they are.
 *
 * The local service's test_prompt answers `Echo (<model>): <prompt_text>`, so a prompt_text holding the same
 * characters comes back in the answer and in the messages of the assertions it fails.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { inertLine } from '../../src/core/plain-text';
import { kindById } from '../../src/core/resources';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

/** What a terminal acts on rather than shows: C0 and C1 controls but the line feed and tab, DEL, line separators, bidi controls. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const NAMES = {
  colour: 'Red \u001b[31mALERT\u001b[0m',
  link: 'Link \u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007',
  bell: 'Bell\u0007 ring',
  carriage: 'Refunds\rAll good',
  override: 'Invoice \u202Egnp.exe',
  newline: 'Two\nLines',
  c1: 'Clear \u009b2J screen',
  repeated: 'Twice \u001b[1mbold',
  created: 'New \u001b[5mblink\r\n\u202Eagain',
  drifted: 'Drifted \u001b[2J\u0007\u202Eelsewhere',
} as const;
/** The names the folder updates: every hostile one pulled, each in its own row. */
const UPDATED = [NAMES.colour, NAMES.link, NAMES.bell, NAMES.carriage, NAMES.override, NAMES.newline, NAMES.c1];
/** A prompt text, and so an answer, holding every kind of character above. */
const HOSTILE_TEXT =
  'Hi \u001b[31mthere\u0007\r\u202Eevil \u009b2J\nnext \u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007';

interface Entry {
  segment: string;
  id: number;
  file: string;
  name: string;
}

/** Where `text` holds a character that acts: its code point and what surrounds it, or undefined. */
function activeAt(text: string): string | undefined {
  const found = ACTIVE.exec(text);
  if (!found) return undefined;
  const code = found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `U+${code} in ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 40))}`;
}

function assertInert(result: Run, what: string): void {
  assert.equal(activeAt(result.stdout), undefined, `${what}: stdout`);
  assert.equal(activeAt(result.stderr), undefined, `${what}: stderr`);
}

describe("contract: hostile names and answers in the command-line tool's human output", function () {
  let ctx: ContractContext;
  let work: string;
  let tenantId: number;
  const prompts = kindById('prompt');

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken });
  const at = (file: string): string => path.join(work, 'folder', ...file.split('/'));
  const faults = async (...queue: object[]): Promise<void> => {
    await (
      await request(`${ctx.service.url}/__test/faults`, {
        method: 'POST',
        body: JSON.stringify({ queue }),
        headers: { 'content-type': 'application/json' },
      })
    ).body.text();
  };
  let pulled: Run;

  useContract((started) => {
    ctx = started;
  });
  before(async () => {
    tenantId = await freshTenant(ctx, 'Hostile');
    for (const name of [...UPDATED, NAMES.repeated, NAMES.repeated])
      await ctx.admin.create(prompts, { name, system: 'Say hello.' }, tenantId);
    work = await mkdtemp(path.join(tmpdir(), 'convai-hostile-'));
    pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
    const entries = (
      JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as { resources: Entry[] }
    ).resources.filter((e) => e.segment === 'ai_prompts');
    // The folder updates every hostile name, removes one of the two alike and adds one; the service gains a prompt.
    for (const name of UPDATED) {
      const entry = entries.find((e) => e.name === name);
      assert.ok(entry, `${JSON.stringify(name)} was pulled`);
      const file = at(entry.file);
      await writeFile(
        file,
        JSON.stringify(
          { ...(JSON.parse(await readFile(file, 'utf8')) as object), description: `Changed: ${name}` },
          null,
          2,
        ),
      );
    }
    await writeFile(
      at(entries.find((e) => e.name === NAMES.colour)?.file.replace(/\.json$/, '.system.md') ?? ''),
      `Say ${HOSTILE_TEXT}.\n`,
    );
    const second = entries.filter((e) => e.name === NAMES.repeated)[1];
    assert.ok(second, 'both prompts of one name were pulled');
    await rm(at(second.file));
    await rm(at(second.file.replace(/\.json$/, '.system.md')));
    await writeFile(at('ai_prompts/new.json'), JSON.stringify({ name: NAMES.created, system: 'Bye.' }));
    await ctx.admin.create(prompts, { name: NAMES.drifted, system: 'Made elsewhere.' }, tenantId);
  });
  afterEach(async () => {
    await (await request(`${ctx.service.url}/__test/faults`, { method: 'DELETE' })).body.text();
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('pull: the warning naming prompts of one name shows the name escaped', () => {
    assertInert(pulled, 'pull');
    assert.match(pulled.stderr, /^warning: 2 AI Prompts are named "Twice \\u001B\[1mbold" on the service/m);
  });

  it('plan: one table row per change, one line each, names escaped; --json keeps the names as they are', async () => {
    const planned = await run('plan', 'folder');
    assert.equal(planned.code, 0, planned.stderr);
    assertInert(planned, 'plan');
    const lines = planned.stdout.split('\n');
    const header = lines.findIndex((line) => /^#\s+action\s+kind\s+id\s+name\s+fields$/.test(line));
    assert.ok(header > 0, planned.stdout);
    const rows = lines.slice(header + 1, lines.indexOf('', header));
    assert.equal(rows.length, UPDATED.length + 2, planned.stdout);
    for (const row of rows) assert.match(row, /^\d+\s+(create|update|delete)\s+ai_prompts\s+(\d+|-)\s+\S/, row);
    for (const name of [...UPDATED, NAMES.repeated, NAMES.created]) {
      assert.ok(
        rows.some((row) => row.includes(inertLine(name).slice(0, 20))),
        `a row names ${inertLine(name)}`,
      );
    }

    const json = await run('plan', '--json', 'folder');
    assert.equal(json.code, 0, json.stderr);
    assertInert(json, 'plan --json');
    const names = (JSON.parse(json.stdout) as { changes: Array<{ name: string }> }).changes.map((c) => c.name);
    assert.deepEqual(
      names.sort(),
      [...UPDATED, NAMES.repeated, NAMES.created].sort(),
      'JSON carries each name as it is',
    );
  });

  it('plan --format markdown and plan --drift: no character acts, in the comment or the notes', async () => {
    const markdown = await run('plan', '--format', 'markdown', 'folder');
    assert.equal(markdown.code, 0, markdown.stderr);
    assertInert(markdown, 'plan --format markdown');
    assert.ok(markdown.stdout.includes('<code>Invoice \\u202Egnp.exe</code>'), markdown.stdout);
    assert.ok(
      markdown.stdout.includes('Say Hi \\u001B[31mthere\\u0007␍\\u202Eevil \\u009B2J'),
      'the diff of a text shows its controls escaped',
    );

    const drifted = await run('plan', '--drift', 'folder');
    assert.equal(drifted.code, 0, drifted.stderr);
    assertInert(drifted, 'plan --drift');
    assert.ok(drifted.stdout.includes(`note: ai_prompts "${inertLine(NAMES.drifted)}"`), drifted.stdout);
  });

  it("drift: the table of what moved on the service, and an error quoting the service's text", async () => {
    const drift = await run('drift', 'folder');
    assert.equal(drift.code, 1, drift.stderr);
    assertInert(drift, 'drift');
    assert.ok(drift.stdout.includes(inertLine(NAMES.drifted)), drift.stdout);

    await faults({
      match: 'GET /api/v1/ai_prompts',
      status: 400,
      body: JSON.stringify({ error: `Refused \u001b[31m${NAMES.link} ${NAMES.override}\u0007` }),
      count: 5,
    });
    const failed = await run('drift', 'folder');
    assert.equal(failed.code, 1, failed.stderr);
    assertInert(failed, 'drift, failed');
    assert.match(failed.stderr, /Refused \\u001B\[31mLink \\u001B\]8;;https:\/\/evil\.example\/\\u0007click/);
  });

  it('map: the Mermaid and DOT charts hold no character that acts', async () => {
    for (const format of ['mermaid', 'dot']) {
      const map = await runCli(['map', '--format', format, 'folder'], work, {});
      assert.equal(map.code, 0, map.stderr);
      assertInert(map, `map --format ${format}`);
    }
  });

  it('test: headings, case rows, failed assertions quoting the answer, and the JUnit report', async () => {
    await mkdir(path.join(work, 'suites'));
    await writeFile(
      path.join(work, 'suites/hostile.prompttest.json'),
      JSON.stringify(
        {
          target: { tenantId },
          prompt: NAMES.colour,
          cases: [
            {
              name: `contains \u001b[32mPASS\r${NAMES.override}`,
              prompt_text: HOSTILE_TEXT,
              expect: { response: { contains: 'never said' } },
            },
            { name: `equals ${NAMES.newline}`, prompt_text: HOSTILE_TEXT, expect: { response: 'something else' } },
          ],
        },
        null,
        2,
      ),
    );
    const tested = await run('test', '--url', ctx.service.url, '--junit', 'report.xml', 'suites');
    assert.equal(tested.code, 1, tested.stderr);
    assertInert(tested, 'test');
    const lines = tested.stdout.split('\n');
    assert.ok(
      lines.some((line) =>
        line.startsWith('suites/hostile.prompttest.json: AI Prompt "Red \\u001B[31mALERT\\u001B[0m"'),
      ),
      tested.stdout,
    );
    assert.ok(
      lines.some((line) => /^ {2}contains \\u001B\[32mPASS\\rInvoice \\u202Egnp\.exe +FAIL /.test(line)),
      tested.stdout,
    );
    assert.ok(
      lines.some((line) => /^ {2}equals Two\\nLines +FAIL /.test(line)),
      tested.stdout,
    );
    assert.ok(
      lines.some((line) => /^ {6}- response: does not contain "never said"; it is .*Hi \\u001b\[31mthere/i.test(line)),
      tested.stdout,
    );
    const xml = await readFile(path.join(work, 'report.xml'), 'utf8');
    assert.equal(activeAt(xml), undefined, 'the JUnit report');
    assert.ok(xml.includes('name="contains \\u001B[32mPASS\\rInvoice \\u202Egnp.exe"'), xml);
  });

  it('push: one line per change sent, names escaped', async () => {
    const pushed = await run('push', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assertInert(pushed, 'push');
    const lines = pushed.stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, UPDATED.length + 2, pushed.stdout);
    for (const line of lines)
      assert.match(line, /^(created|updated|deleted) ai_prompts "[^"]*"( \(id \d+\))?(: .*)?$/, line);
    assert.match(pushed.stdout, /^updated ai_prompts "Two\\nLines" \(id \d+\): description$/m);
  });
});
