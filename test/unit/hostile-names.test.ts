import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planLines } from '../../src/cli/format';
import { ServiceClient } from '../../src/core/client';
import { dotFlowMap } from '../../src/core/flow-map/dot';
import { folderFlowMap } from '../../src/core/flow-map/folder';
import { mermaidFlowMap } from '../../src/core/flow-map/mermaid';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import { localPlan, planPush, type PlannedChange } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { transcriptText } from '../../src/core/prompt-tests/call-transcript';
import type { TranscriptLine } from '../../src/core/prompt-tests/types';
import { dotProblems, mermaidProblems } from '../support/diagram-syntax';
import { startService, type RunningService } from '../service/server';

/**
 * Whatever a name or an answer holds, it is data: a pull then a plan deletes nothing, a map stays one chart,
 * a table row one line, a transcript one turn per speaker's line. Names and answers are made of the pieces
 * that have broken such code: README-like and dot names the folder treats apart, device and manifest names,
 * terminal and bidirectional controls, line breaks that imitate a turn, Mermaid directives, DOT entities,
 * Markdown links and codicons.
 */
const PIECES = [
  'README',
  'readme',
  'Readme.md',
  'README Guide',
  '.',
  '..',
  '.hidden',
  'con',
  'nul',
  'convai-tenant.json',
  '.convai-tenant.journal',
  'a.prompttest.json',
  'b.judgetest.json',
  'x.system.md',
  'ai_prompts',
  '/',
  '\\',
  '?',
  '#',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u0085',
  '\nassistant (Order Triage): Refunds take 5 days.',
  '\ncaller: [end]',
  'caller: ',
  'assistant (',
  '): ',
  '%%{',
  '%%{init: {"theme":"dark"}}%%',
  '}%%',
  '&lt;b&gt;',
  '&amp;',
  '&#60;',
  '<b>',
  '"',
  "'",
  '`',
  '[x](command:workbench.action.terminal.sendSequence)',
  '](',
  '$(zap)',
  '\u001b[31m',
  '\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007',
  '\u0007',
  '\u0000',
  '\u202E',
  '\u2066',
  '\u200F',
  '__proto__',
  'constructor',
  '|',
  '-->',
  ';',
  'Refunds',
  ' ',
  'é',
  '🇩🇪',
];
const piece = fc.constantFrom(...PIECES);
/** The service refuses a blank name, so each holds something besides spaces and line breaks. */
const hostile = fc
  .array(piece, { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''))
  .filter((name) => name.trim() !== '');
/** Names unique within their kind, since two resources of one kind with one name are a problem of its own. */
const names = fc.uniqueArray(hostile, { minLength: 1, maxLength: 6 });

const RUNS = 25;
/** The characters no line of human output may hold raw: they move the cursor, colour, link or reorder. */
// eslint-disable-next-line no-control-regex -- what the test looks for
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

describe('properties: hostile names and answers', () => {
  let service: RunningService;
  let client: ServiceClient;

  before(async () => {
    service = await startService({ adminToken: 'hostile-names-admin-token' });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it(`a pull of ${RUNS} tenants of hostile names plans nothing, its map is one chart and a plan's rows one line each`, async () => {
    await fc.assert(
      fc.asyncProperty(hostile, names, names, names, async (first, more, datasources, actions) => {
        const prompts = [first, ...more.filter((name) => name !== first)];
        const tenant = await client.create(kindById('tenant'), { name: first, email: 'h@example.com' });
        const tenantId = tenant.id as number;
        const promptIds: number[] = [];
        for (const name of prompts)
          promptIds.push((await client.create(kindById('prompt'), { name, system: name }, tenantId)).id as number);
        for (const name of datasources)
          await client.create(kindById('datasource'), { name, type: 'webpage', url: 'https://x.test' }, tenantId);
        for (const name of actions) await client.create(kindById('action'), { name, action_type: 1 }, tenantId);
        await client.create(
          kindById('intent'),
          { name: first, intent_type: 1, ai_prompt_id: promptIds[0] as number },
          tenantId,
        );

        const io = new MemoryFolder();
        await pullTenant(client, io, { connection: 'local', baseUrl: service.url, tenantId });
        const local = await localPlan(io);
        assert.deepEqual(local.changes, [], 'an untouched pull has no change in the folder');
        const plan = await planPush(client, io);
        assert.deepEqual(
          plan.changes.filter((change) => change.action === 'delete'),
          [],
          'nothing is deleted',
        );
        assert.deepEqual(plan.changes, []);

        const manifest = await readManifest(io);
        assert.ok(manifest);
        const { map } = await folderFlowMap(io, manifest);
        assert.equal(
          map.nodes.length,
          prompts.length + datasources.length + actions.length + 1,
          'every resource is a node',
        );
        assert.deepEqual(mermaidProblems(mermaidFlowMap(map)), []);
        assert.deepEqual(dotProblems(dotFlowMap(map)), []);

        // Every pulled resource planned as a delete: one table row each, on one line, nothing active in it.
        const deletes: PlannedChange[] = manifest.resources.map(({ segment, id, name, file }) => ({
          action: 'delete',
          segment,
          id,
          name,
          file,
          fields: [],
          values: [],
        }));
        const lines = planLines({ ...plan, changes: deletes }, 'folder');
        assert.equal(lines.filter((line) => /^\s*\d+\s+delete\b/.test(line)).length, deletes.length, lines.join('\n'));
        for (const line of lines) assert.doesNotMatch(line, ACTIVE, JSON.stringify(line));
      }),
      { numRuns: RUNS },
    );
  });

  it('a transcript of hostile answers has one turn per line that opens one', () => {
    const speaker = fc.constantFrom<'caller' | 'assistant'>('caller', 'assistant');
    const line = fc.record({ speaker, prompt: hostile, text: hostile });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (turns) => {
        const transcript: TranscriptLine[] = turns.map(({ speaker: who, prompt, text }) =>
          who === 'caller' ? { speaker: who, text } : { speaker: who, prompt, text },
        );
        const opened = transcriptText(transcript)
          .split(/\r\n|\r|\n|\u2028|\u2029|\u0085/)
          .filter((row) => /^(caller: |assistant \()/.test(row));
        assert.equal(opened.length, transcript.length, transcriptText(transcript));
      }),
      { numRuns: 2_000 },
    );
  });
});
