import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Json, JsonObject } from '../../src/core/json';
import type { Segment } from '../../src/core/resource-kind';
import type { FileLocation } from '../../src/core/uri';
import {
  addConnection,
  admin,
  shown,
  clearFaults,
  clearRequests,
  receivedRequests,
  documentText,
  documentUri,
  injectFaults,
  kind,
  removeConnection,
  replaceText,
  revertAll,
  writeError,
} from './support';

const CONNECTION = 'docs';
const READ_ONLY = 'docs-ro';
const TENANT = 1;

interface Case {
  segment: Segment;
  create: JsonObject;
  /** A valid edit the service keeps. */
  edit: [string, Json];
  /** A value the schema refuses. */
  invalid: [string, Json];
}

const CASES: Case[] = [
  {
    segment: 'tenants',
    create: { name: 'Docs Tenant', email: 'admin@docs.example', package: 'standard' },
    edit: ['name', 'Docs Tenant (renamed)'],
    invalid: ['name', 5],
  },
  {
    segment: 'integrations',
    create: { name: 'Docs CRM', system: 'hubspot', technical_id: 'docs-crm' },
    edit: ['name', 'Docs CRM EU'],
    invalid: ['tec_params', 'not an object'],
  },
  {
    segment: 'ai_prompts',
    create: { name: 'Docs prompt', description: 'before', ai_model: 'gpt-4o' },
    edit: ['description', 'after'],
    invalid: ['mode', 7],
  },
  {
    segment: 'ai_functions',
    create: { name: 'docs_fn', description: 'before', parameters: { type: 'object', properties: {} } },
    edit: ['description', 'after'],
    invalid: ['parameters', { type: 'array' }],
  },
  {
    segment: 'ai_actions',
    create: { name: 'Docs action', action_type: 1, speak: 'before' },
    edit: ['speak', 'after'],
    invalid: ['action_type', 9],
  },
  {
    segment: 'agents',
    create: { name: 'Docs agent', description: 'before' },
    edit: ['description', 'after'],
    invalid: ['configuration', 'not an object'],
  },
  {
    segment: 'intents',
    create: { name: 'docs_intent', display_name: 'Before', intent_type: 1 },
    edit: ['display_name', 'After'],
    invalid: ['intent_type', 5],
  },
  {
    segment: 'datasources',
    create: { name: 'Docs page', type: 'webpage', url: 'https://example.com/a' },
    edit: ['url', 'https://example.com/b'],
    invalid: ['type', 'pdf'],
  },
];

function locationOf(segment: Segment, id: number, connection = CONNECTION): FileLocation {
  return segment === 'tenants'
    ? { type: 'tenant', connection, tenantId: id }
    : { type: 'resource', connection, tenantId: TENANT, segment, id };
}

async function serviceDetail(segment: Segment, id: number): Promise<JsonObject> {
  return admin.get(kind(segment), id, segment === 'tenants' ? undefined : TENANT);
}

/** The document's text for a detail object with one field changed (credentials masked, as the editor shows them). */
function withField(segment: Segment, detail: JsonObject, field: string, value: Json): string {
  return shown(segment, { ...detail, [field]: value });
}

function lineOf(text: string, field: string): number {
  return text.split('\n').findIndex((line) => line.startsWith(`  "${field}":`));
}

describe('documents: every resource as an editable JSON document', () => {
  before(async () => {
    await addConnection(CONNECTION);
    await addConnection(READ_ONLY, { readOnly: true });
  });
  after(async () => {
    await removeConnection(CONNECTION);
    await removeConnection(READ_ONLY);
  });
  afterEach(async () => {
    await clearFaults();
    await revertAll();
  });

  it('opens a document and its part at once with one GET of the resource', async () => {
    const created = await admin.create(kind('ai_prompts'), { name: 'One read', system: 'Hello' }, TENANT);
    const id = created.id as number;
    await clearRequests();
    const [whole, part] = await Promise.all([
      vscode.workspace.openTextDocument(documentUri(locationOf('ai_prompts', id))),
      vscode.workspace.openTextDocument(
        documentUri({
          type: 'part',
          connection: CONNECTION,
          tenantId: TENANT,
          segment: 'ai_prompts',
          id,
          part: 'system',
        }),
      ),
    ]);
    assert.equal(part.getText(), 'Hello');
    assert.match(whole.getText(), /"name": "One read"/);
    const gets = (await receivedRequests()).filter(
      (r) => r.method === 'GET' && r.path.startsWith(`/api/v1/ai_prompts/${id}`),
    );
    assert.equal(gets.length, 1, `GETs sent: ${JSON.stringify(gets)}`);
  });

  for (const testCase of CASES) {
    describe(testCase.segment, () => {
      const resourceKind = kind(testCase.segment);
      let id = 0;
      let uri: vscode.Uri;
      before(async () => {
        const created = await admin.create(
          resourceKind,
          testCase.create,
          testCase.segment === 'tenants' ? undefined : TENANT,
        );
        id = created.id as number;
        uri = documentUri(locationOf(testCase.segment, id));
      });

      it('opens as the service detail object, indented by two spaces', async () => {
        const document = await vscode.workspace.openTextDocument(uri);
        assert.equal(document.getText(), shown(testCase.segment, await serviceDetail(testCase.segment, id)));
        assert.equal(document.languageId, 'json');
      });

      it('saves an edit with PUT, and the service holds it', async () => {
        const document = await vscode.workspace.openTextDocument(uri);
        const [field, value] = testCase.edit;
        await replaceText(
          document,
          withField(testCase.segment, await serviceDetail(testCase.segment, id), field, value),
        );
        assert.ok(await document.save(), 'the save succeeded');
        assert.equal(document.isDirty, false);
        const after = await serviceDetail(testCase.segment, id);
        assert.deepEqual(after[field], value);
        await documentText(
          document,
          (text) => text === shown(testCase.segment, after),
          'the document to show the service object',
        );
      });

      for (const [name, change, field] of [
        ['invalid JSON', (text: string): string => text.replace(/,\n/, '\n'), undefined],
        [
          'a schema violation',
          (_text: string, detail: JsonObject): string =>
            withField(testCase.segment, detail, testCase.invalid[0], testCase.invalid[1]),
          testCase.invalid[0],
        ],
        [
          'a changed id',
          (_text: string, detail: JsonObject): string => withField(testCase.segment, detail, 'id', id + 1000),
          'id',
        ],
      ] as const) {
        it(`refuses ${name}: nothing sent, the document stays dirty, the problem shown in place`, async () => {
          const before = await serviceDetail(testCase.segment, id);
          const document = await vscode.workspace.openTextDocument(uri);
          const edited = change(document.getText(), before);
          await replaceText(document, edited);
          assert.equal(await document.save(), false, 'the save was refused');
          assert.equal(document.isDirty, true);
          assert.equal(document.getText(), edited, 'the user text is kept');
          assert.deepEqual(await serviceDetail(testCase.segment, id), before, 'the service is untouched');
          const problems = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'ConvAI');
          assert.ok(problems.length > 0, 'a diagnostic marks the problem');
          if (field)
            assert.ok(
              problems.some((p) => p.range.start.line === lineOf(edited, field)),
              `a diagnostic on the line of ${field}`,
            );
          const error = await writeError(uri, edited);
          assert.match(error.message, /Not saved, nothing was sent/);
        });
      }

      it('keeps the document dirty with the service reason when the service answers 422', async () => {
        const document = await vscode.workspace.openTextDocument(uri);
        const [field, value] = testCase.edit;
        const edited = withField(
          testCase.segment,
          await serviceDetail(testCase.segment, id),
          field,
          `${String(value)} 422`,
        );
        await replaceText(document, edited);
        const put = `PUT /api/v1/${testCase.segment}/${id}`;
        await injectFaults({
          match: put,
          status: 422,
          body: '{"errors":{"name":["has already been taken"]}}',
          contentType: 'application/json',
          count: 2,
        });
        assert.equal(await document.save(), false);
        assert.equal(document.isDirty, true);
        assert.equal(document.getText(), edited);
        const error = await writeError(uri, edited);
        assert.match(error.message, /422 Unprocessable Entity: name: has already been taken/);
      });

      it('keeps the document dirty with the cause when the connection drops during the save', async () => {
        const document = await vscode.workspace.openTextDocument(uri);
        const before = await serviceDetail(testCase.segment, id);
        await replaceText(
          document,
          withField(testCase.segment, before, testCase.edit[0], `${String(testCase.edit[1])} dropped`),
        );
        const put = `PUT /api/v1/${testCase.segment}/${id}`;
        await injectFaults({ match: put, drop: true, count: 2 });
        assert.equal(await document.save(), false);
        assert.equal(document.isDirty, true);
        const error = await writeError(uri, document.getText());
        assert.match(error.message, /closed the connection|socket|reset/i);
        assert.deepEqual(await serviceDetail(testCase.segment, id), before, 'the service is untouched');
      });

      it('detects a concurrent change instead of overwriting it', async () => {
        const document = await vscode.workspace.openTextDocument(uri);
        const opened = await serviceDetail(testCase.segment, id);
        const [field, value] = testCase.edit;
        const theirs = `${String(value)} (theirs)`;
        await admin.update(resourceKind, id, { [field]: theirs }, testCase.segment === 'tenants' ? undefined : TENANT);
        const error = await writeError(uri, withField(testCase.segment, opened, field, `${String(value)} (mine)`));
        assert.match(error.message, /Conflict: .* changed on the service/);
        assert.equal((await serviceDetail(testCase.segment, id))[field], theirs, 'their change is kept');
        assert.equal(document.isDirty, false);
      });

      it('refuses to save through a read-only connection', async () => {
        const readOnlyUri = documentUri(locationOf(testCase.segment, id, READ_ONLY));
        const before = await serviceDetail(testCase.segment, id);
        const document = await vscode.workspace.openTextDocument(readOnlyUri);
        assert.equal(document.getText(), shown(testCase.segment, before));
        const stat = await vscode.workspace.fs.stat(readOnlyUri);
        assert.equal(stat.permissions, vscode.FilePermission.Readonly);
        const error = await writeError(
          readOnlyUri,
          withField(testCase.segment, before, testCase.edit[0], testCase.edit[1]),
        );
        assert.match(error.message, /read-only/);
        assert.deepEqual(await serviceDetail(testCase.segment, id), before);
      });
    });
  }
});
