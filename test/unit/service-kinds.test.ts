import * as assert from 'node:assert/strict';
import * as core from '../../src/core/resources';
import type { FieldSpec, KindId } from '../../src/core/resource-kind';
import { KINDS } from '../../src/core/resource-table';
import type { Json } from '../../src/core/json';
import * as service from '../service/kinds';

/*
 * The extension (src/core/resource-table.ts) and the local service
 * (test/service/kinds.ts) each state the spec's resource facts on their own,
 * so that a wrong fact on one side is caught here instead of being shared by
 * the client and the service that tests it.
 */

const flags = (field: FieldSpec | service.Field | undefined) => ({
  type: field?.type,
  serviceOwned: field?.serviceOwned ?? false,
  requestOnly: field?.requestOnly ?? false,
  requiredOnCreate: field?.requiredOnCreate ?? false,
});

const values = (names: object): number[] => Object.keys(names).map(Number);

/** The core's enumerations, by kind and field; the service states them as each field's `allowed`. */
const CORE_ENUMS: Partial<Record<KindId, Record<string, readonly Json[]>>> = {
  prompt: {
    prompt_type: values(core.ENUMS.promptType),
    mode: values(core.ENUMS.promptMode),
    voice: core.VOICE_OPTIONS,
  },
  action: { action_type: values(core.ENUMS.actionType), voice: core.VOICE_OPTIONS },
  intent: { intent_type: values(core.ENUMS.intentType) },
  datasource: { type: core.DATASOURCE_TYPES },
};

describe("the local service's resource facts agree with src/core/resource-table.ts", () => {
  it('both name the same kinds', () => {
    assert.deepEqual(service.KINDS.map((k) => k.id).sort(), KINDS.map((k) => k.id).sort());
  });

  it('both name the same voices', () => {
    assert.deepEqual(service.VOICES, core.VOICE_OPTIONS);
  });

  for (const coreKind of KINDS) {
    describe(coreKind.id, () => {
      const kind = service.kindById(coreKind.id);

      it('has the same path segment, body key, tenant query and delete status', () => {
        assert.equal(kind.segment, coreKind.segment);
        assert.equal(kind.wrapperKey, coreKind.wrapperKey);
        assert.equal(kind.tenantQuery, coreKind.tenantQuery);
        for (const id of [7, 1234]) {
          assert.equal(kind.deleteStatus(id), coreKind.deleteStatus(id));
        }
      });

      it('has the same fields, in order, each with the same type and flags', () => {
        assert.deepEqual(Object.keys(kind.fields), Object.keys(coreKind.fields));
        for (const field of Object.keys(coreKind.fields)) {
          assert.deepEqual(flags(kind.fields[field]), flags(coreKind.fields[field]), field);
        }
      });

      it('answers with the same fields in lists, details, creates and updates', () => {
        assert.deepEqual(kind.summaryFields, coreKind.summaryFields, 'summary');
        assert.deepEqual(kind.detailFields, coreKind.detailFields, 'detail');
        assert.deepEqual(kind.createResponseFields, coreKind.createResponseFields, 'create');
        assert.deepEqual(kind.createResponseExtras ?? {}, coreKind.createResponseExtras ?? {}, 'create extras');
        assert.deepEqual(kind.updateResponseFields, coreKind.updateResponseFields, 'update');
      });

      it('enumerates the same values for the same fields', () => {
        const allowed = Object.entries(kind.fields).flatMap(([field, spec]) =>
          spec.allowed ? [[field, spec.allowed]] : [],
        );
        assert.deepEqual(Object.fromEntries(allowed), CORE_ENUMS[coreKind.id] ?? {});
      });
    });
  }
});
