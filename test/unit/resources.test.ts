import * as assert from 'node:assert/strict';
import {
  createFields,
  editableFields,
  kindById,
  kindBySegment,
  kindOfSegment,
  requiredOnCreate,
  serviceOwnedFields,
  TENANT_SEGMENTS,
} from '../../src/core/resources';
import { KINDS } from '../../src/core/resource-table';

// A literal transcription of service-api.md section 4.1, so a wrong table fails here.
const SPEC_4_1: ReadonlyArray<[string, string, string]> = [
  ['integrations', 'integration', 'Integration 7 deleted'],
  ['ai_prompts', 'prompt', 'Prompt deleted successfully'],
  ['ai_functions', 'ai_function', 'Function 7 deleted'],
  ['ai_actions', 'ai_action', 'Action 7 deleted'],
  ['agents', 'agent', 'Agent 7 deleted'],
  ['intents', 'intent', 'Intent 7 deleted'],
  ['datasources', 'datasource', 'Datasource 7 deleted'],
  ['tenants', 'tenant', 'Tenant 7 deleted'],
];

describe('resource table', () => {
  it('has the eight kinds of section 4.1 with their wrapper keys and delete texts', () => {
    assert.equal(KINDS.length, 8);
    for (const [segment, key, status] of SPEC_4_1) {
      const kind = kindBySegment(segment);
      assert.ok(kind, segment);
      assert.equal(kind.wrapperKey, key);
      assert.equal(kind.deleteStatus(7), status);
    }
  });

  it('gives the kind of every segment the types allow', () => {
    for (const kind of KINDS) assert.equal(kindOfSegment(kind.segment), kind);
    assert.equal(kindOfSegment('tenants'), kindById('tenant'));
    assert.equal(kindOfSegment('ai_prompts'), kindById('prompt'));
  });

  it('lists the seven tenant-scoped segments of the URI layout', () => {
    assert.deepEqual(TENANT_SEGMENTS, [
      'integrations',
      'ai_prompts',
      'ai_functions',
      'ai_actions',
      'agents',
      'intents',
      'datasources',
    ]);
  });

  it('puts tenant_id in detail but never in summaries', () => {
    for (const kind of KINDS) {
      assert.ok(!kind.summaryFields.includes('tenant_id'), kind.id);
      assert.equal(kind.detailFields.includes('tenant_id'), kind.id !== 'tenant', kind.id);
    }
  });

  it('keeps summary and response fields within the detail fields, each with a type', () => {
    for (const kind of KINDS) {
      for (const field of [
        ...kind.summaryFields,
        ...kind.createResponseFields,
        ...kind.updateResponseFields,
        ...kind.detailFields,
      ]) {
        assert.ok(kind.detailFields.includes(field), `${kind.id}.${field} is not a detail field`);
        assert.ok(kind.fields[field], `${kind.id}.${field} has no type`);
      }
    }
  });

  it('gives the response shapes of the create/update table', () => {
    assert.deepEqual(kindById('prompt').createResponseFields, ['id', 'name']);
    assert.deepEqual(kindById('prompt').createResponseExtras, { status: 'created' });
    assert.deepEqual(kindById('agent').createResponseFields, ['id', 'name', 'number', 'description', 'tenant_id']);
    assert.ok(kindById('agent').updateResponseFields.includes('configuration'));
    assert.deepEqual(kindById('tenant').updateResponseFields, ['id', 'name', 'auth_token']);
    assert.ok(!kindById('action').createResponseFields.includes('say_before'));
    assert.ok(!kindById('intent').updateResponseFields.includes('ai_actions'));
    assert.ok(!kindById('datasource').createResponseFields.includes('content'));
  });

  it('knows which fields the service owns and which a client may send', () => {
    assert.deepEqual(serviceOwnedFields(kindById('agent')).sort(), ['id', 'number', 'tenant_id']);
    assert.ok(!editableFields(kindById('prompt')).includes('id'));
    assert.ok(editableFields(kindById('prompt')).includes('temparature'));
    assert.deepEqual(editableFields(kindById('tenant')), ['name']);
    assert.deepEqual(createFields(kindById('tenant')).sort(), ['email', 'name', 'package']);
    assert.deepEqual(requiredOnCreate(kindById('integration')), ['name', 'system', 'technical_id']);
  });

  it('puts tenant_id in the query where the spec does', () => {
    assert.equal(kindById('tenant').tenantQuery, 'none');
    assert.equal(kindById('prompt').tenantQuery, 'optional');
    assert.equal(kindById('integration').tenantQuery, 'required');
    assert.equal(kindById('function').tenantQuery, 'required');
  });
});
