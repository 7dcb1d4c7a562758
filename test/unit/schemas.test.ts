import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatDocument, parseDocument } from '../../src/core/json-document';
import {
  DATASOURCE_TYPES,
  ENUMS,
  kindBySegment,
  requiredOnCreate,
  serviceOwnedFields,
  VOICE_OPTIONS,
} from '../../src/core/resources';
import { KINDS } from '../../src/core/resource-table';
import type { ResourceKind, Segment } from '../../src/core/resource-kind';
import { type Problem, type SchemaName, validateDocument } from '../../src/core/validation';
import type { JsonObject } from '../../src/core/json';
import { ASSERTIONS } from '../../src/core/prompt-tests/assertions';
import { CASE_KEYS, OUTPUTS, TURN_KEYS } from '../../src/core/prompt-tests/suite';
import { JUDGE_FILE_KEYS, LABEL_KEYS } from '../../src/core/prompt-tests/judge-file';
import { kindById as servedKind } from '../service/kinds';
import { pick, resourceKindId, viewRecord, viewTenant } from '../service/records';
import { Store } from '../service/store';

type Schema = Record<string, unknown>;

// Compiled tests live in out/test/unit; the schemas are read from the source tree.
const SCHEMA_DIR = path.resolve(__dirname, '../../../schemas');

function schemaOf(segment: Segment): Schema {
  return JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${segment}.schema.json`), 'utf8')) as Schema;
}

function asSchema(value: unknown): Schema {
  assert.ok(
    value && typeof value === 'object' && !Array.isArray(value),
    `expected a schema object, got ${JSON.stringify(value)}`,
  );
  return value as Schema;
}

function propertiesOf(schema: Schema): Schema {
  return asSchema(schema.properties);
}

function typesOf(schema: Schema): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Every subschema holding an `enum`, wherever it is nested. */
function enumNodes(node: unknown, at = ''): Array<[string, Schema]> {
  if (!node || typeof node !== 'object') {
    return [];
  }
  const own: Array<[string, Schema]> = !Array.isArray(node) && 'enum' in node ? [[at, node as Schema]] : [];
  return [...own, ...Object.entries(node).flatMap(([key, child]) => enumNodes(child, `${at}/${key}`))];
}

/** The detail documents the local service shows for the sample data, as the extension would parse them. */
function sampleDetails(kind: ResourceKind): JsonObject[] {
  // The service renders by its own statement of the kind, as it does when serving.
  const served = servedKind(kind.id);
  const store = new Store();
  const views =
    served.id === 'tenant'
      ? store.tenants().map(viewTenant)
      : store
          .tenants()
          .flatMap((t) => store.list(resourceKindId(served), t.id).map((row) => viewRecord(store, served, row)));
  return views.map((view) => parseDocument(formatDocument(pick(view, served.detailFields))).value as JsonObject);
}

function firstSample(segment: Segment): JsonObject {
  const kind = kindBySegment(segment);
  assert.ok(kind);
  const sample = sampleDetails(kind)[0];
  assert.ok(sample, `no sample ${segment}`);
  return sample;
}

/** A copy of the segment's first sample with `change` applied. */
function sample(segment: Segment, change: (doc: JsonObject) => void): JsonObject {
  const doc = structuredClone(firstSample(segment));
  change(doc);
  return doc;
}

function expectProblem(
  segment: SchemaName,
  doc: unknown,
  at: Array<string | number>,
  keyword: string,
  message?: RegExp,
): Problem {
  const problems = validateDocument(segment, doc);
  const found = problems.find((p) => JSON.stringify(p.path) === JSON.stringify(at) && p.keyword === keyword);
  assert.ok(found, `expected ${keyword} at ${JSON.stringify(at)}, got ${JSON.stringify(problems)}`);
  if (message) {
    assert.match(found.message, message);
  }
  return found;
}

const ENUM_VALUES = (names: object): number[] => Object.keys(names).map(Number);

describe('schemas: the files and the resource table agree', () => {
  it('has one schema file per kind, the request definition, function definition and function_defs schemas, and no other', () => {
    const others = [
      'apirequest.schema.json',
      'function_definition.schema.json',
      'function_defs.schema.json',
      'judgetest.schema.json',
      'prompttest.schema.json',
    ];
    assert.deepEqual(
      readdirSync(SCHEMA_DIR).sort(),
      [...KINDS.map((k) => `${k.segment}.schema.json`), ...others].sort(),
    );
  });

  it("never closes a resource document's objects to VS Code, which would flag fields a service adds (the save checks `closed`)", () => {
    const closedToVsCode = (node: unknown): boolean =>
      typeof node === 'object' &&
      node !== null &&
      Object.entries(node).some(
        ([key, child]) => (key === 'additionalProperties' && child === false) || closedToVsCode(child),
      );
    for (const kind of KINDS) assert.equal(closedToVsCode(schemaOf(kind.segment)), false, kind.segment);
  });

  for (const kind of KINDS) {
    describe(kind.segment, () => {
      const schema = schemaOf(kind.segment);
      const properties = propertiesOf(schema);

      it('is a draft-07 object schema with an $id, closed to unknown top-level fields on save', () => {
        assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
        assert.equal(schema.$id, `https://convai.dev/schemas/${kind.segment}.schema.json`);
        assert.equal(schema.type, 'object');
        assert.equal(schema.closed, true);
      });

      it('covers exactly the detail fields, in the service order, each with a title and description', () => {
        assert.deepEqual(Object.keys(properties), kind.detailFields);
        for (const field of kind.detailFields) {
          const property = asSchema(properties[field]);
          assert.equal(typeof property.title, 'string', field);
          assert.equal(typeof property.description, 'string', field);
        }
      });

      it('marks the service-owned fields, and only those, read-only at the top level', () => {
        const owned = serviceOwnedFields(kind).filter((f) => kind.detailFields.includes(f));
        const readOnly = kind.detailFields.filter((f) => asSchema(properties[f]).readOnly === true);
        assert.deepEqual(readOnly, owned);
        for (const field of owned) {
          assert.match(String(asSchema(properties[field]).description), /service owns/, field);
        }
      });

      it('requires the required-on-create detail fields, free strings non-empty', () => {
        const required = requiredOnCreate(kind).filter((f) => kind.detailFields.includes(f));
        assert.deepEqual([...(schema.required as string[])].sort(), required.sort());
        for (const field of required) {
          const property = asSchema(properties[field]);
          assert.ok(!typesOf(property).includes('null'), `${field} must not be nullable`);
          if (kind.fields[field]?.type === 'string' && property.enum === undefined) {
            assert.equal(property.minLength, 1, field);
          }
        }
      });

      it('gives each field the table type, nullable where optional and editable', () => {
        for (const field of kind.detailFields) {
          const property = asSchema(properties[field]);
          const types = typesOf(property);
          assert.deepEqual(
            types.filter((t) => t !== 'null'),
            [kind.fields[field]?.type],
            field,
          );
          const optional = !(schema.required as string[]).includes(field) && property.readOnly !== true;
          if (optional) {
            assert.ok(types.includes('null'), `${field} must allow null`);
          }
        }
      });

      it('describes every enum value for hovers and completion, null included where allowed', () => {
        for (const [at, node] of enumNodes(schema)) {
          const values = node.enum as unknown[];
          assert.equal((node.enumDescriptions as unknown[]).length, values.length, at);
          assert.equal((node.markdownEnumDescriptions as unknown[]).length, values.length, at);
          if (node.enumNames !== undefined) {
            assert.equal((node.enumNames as unknown[]).length, values.length, at);
          }
          assert.equal(values.includes(null), typesOf(node).includes('null'), at);
        }
      });
    });
  }

  it('uses the enums of the resource table, with its readable names', () => {
    const check = (segment: Segment, pointer: string[], values: readonly unknown[], names?: object): void => {
      let node: Schema = schemaOf(segment);
      for (const key of pointer) {
        node = asSchema(node[key]);
      }
      const withoutNull = (list: unknown): unknown[] => (list as unknown[]).filter((v) => v !== null);
      assert.deepEqual(withoutNull(node.enum), [...values], `${segment} ${pointer.join('.')}`);
      if (names) {
        assert.deepEqual(withoutNull(node.enumNames), Object.values(names), `${segment} ${pointer.join('.')} names`);
      }
    };
    check('ai_prompts', ['properties', 'prompt_type'], ENUM_VALUES(ENUMS.promptType), ENUMS.promptType);
    check('ai_prompts', ['properties', 'mode'], ENUM_VALUES(ENUMS.promptMode), ENUMS.promptMode);
    check('ai_prompts', ['properties', 'voice'], VOICE_OPTIONS);
    check('ai_actions', ['properties', 'action_type'], ENUM_VALUES(ENUMS.actionType), ENUMS.actionType);
    check('ai_actions', ['properties', 'voice'], VOICE_OPTIONS);
    const element = ['properties', 'configuration', 'properties', 'prompt', 'items', 'properties'];
    check('agents', [...element, 'voice'], VOICE_OPTIONS);
    check('intents', ['properties', 'intent_type'], ENUM_VALUES(ENUMS.intentType), ENUMS.intentType);
    check(
      'intents',
      ['properties', 'ai_actions', 'items', 'properties', 'action_type'],
      ENUM_VALUES(ENUMS.actionType),
      ENUMS.actionType,
    );
    check('tenants', ['properties', 'booked_package'], ENUM_VALUES(ENUMS.bookedPackage), ENUMS.bookedPackage);
    check('datasources', ['properties', 'type'], DATASOURCE_TYPES);
  });

  it('marks an agent prompt element’s service-kept parts read-only', () => {
    const element = asSchema(
      asSchema(asSchema(propertiesOf(asSchema(propertiesOf(schemaOf('agents')).configuration)).prompt).items),
    );
    const readOnly = Object.entries(propertiesOf(element))
      .filter(([, p]) => asSchema(p).readOnly === true)
      .map(([k]) => k);
    assert.deepEqual(readOnly, ['id', 'function_ids', 'tools', 'actions', 'integration']);
  });
});

describe('schemas: the sample data of the local service', () => {
  for (const kind of KINDS) {
    it(`validates every sample ${kind.segment} document cleanly`, () => {
      const details = sampleDetails(kind);
      assert.ok(details.length >= 2, `expected samples of ${kind.segment}`);
      for (const detail of details) {
        assert.deepEqual(validateDocument(kind.segment, detail), [], `${kind.segment} ${String(detail.id)}`);
      }
    });
  }
});

describe('schemas: invalid documents', () => {
  for (const kind of KINDS) {
    describe(kind.segment, () => {
      it('reports a wrong type, a null name and a missing name at the name', () => {
        expectProblem(
          kind.segment,
          sample(kind.segment, (d) => {
            d.name = 42;
          }),
          ['name'],
          'type',
          /^name: must be a string, not 42$/,
        );
        expectProblem(
          kind.segment,
          sample(kind.segment, (d) => {
            d.name = null;
          }),
          ['name'],
          'type',
          /not null/,
        );
        expectProblem(
          kind.segment,
          sample(kind.segment, (d) => {
            delete d.name;
          }),
          ['name'],
          'required',
          /^name: required/,
        );
        expectProblem(
          kind.segment,
          sample(kind.segment, (d) => {
            d.name = '';
          }),
          ['name'],
          'minLength',
          /must not be empty/,
        );
      });

      it('reports an unknown property at its name, suggesting a close field', () => {
        expectProblem(
          kind.segment,
          sample(kind.segment, (d) => {
            d.nmae = 'x';
          }),
          ['nmae'],
          'additionalProperties',
          /did you mean "name"\?$/,
        );
      });

      it('accepts null for every optional editable field', () => {
        const schema = schemaOf(kind.segment);
        const doc = sample(kind.segment, (d) => {
          for (const field of kind.detailFields) {
            if (!(schema.required as string[]).includes(field) && !kind.fields[field]?.serviceOwned) {
              d[field] = null;
            }
          }
        });
        assert.deepEqual(validateDocument(kind.segment, doc), []);
      });
    });
  }

  it('reports an unknown `temperature` with the spec’s spelling', () => {
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.temperature = 0.3;
      }),
      ['temperature'],
      'additionalProperties',
      /^temperature: unknown field; did you mean "temparature"\?$/,
    );
  });

  it('reports enum values out of range with their allowed values', () => {
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.prompt_type = 6;
      }),
      ['prompt_type'],
      'enum',
      /1 \(Standard\).*5 \(Data summary\)/,
    );
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.mode = 0;
      }),
      ['mode'],
      'enum',
      /^mode: must be one of 1 \(Activated\), 2 \(Deactivated\), 3 \(Simulated\)$/,
    );
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.voice = 'robot';
      }),
      ['voice'],
      'enum',
      /"alloy".*"verse"/,
    );
    expectProblem(
      'ai_actions',
      sample('ai_actions', (d) => {
        d.action_type = 5;
      }),
      ['action_type'],
      'enum',
      /4 \(Custom\)/,
    );
    expectProblem(
      'ai_actions',
      sample('ai_actions', (d) => {
        d.voice = 'Alloy';
      }),
      ['voice'],
      'enum',
    );
    expectProblem(
      'intents',
      sample('intents', (d) => {
        d.intent_type = 3;
      }),
      ['intent_type'],
      'enum',
      /2 \(Group\)/,
    );
    expectProblem(
      'datasources',
      sample('datasources', (d) => {
        d.type = 'pdf';
      }),
      ['type'],
      'enum',
      /"webpage", "text", "file", "database"/,
    );
    expectProblem(
      'tenants',
      sample('tenants', (d) => {
        d.booked_package = 3;
      }),
      ['booked_package'],
      'enum',
      /2 \(voice\)/,
    );
  });

  it('reports a missing required enum field and a null where it is not allowed', () => {
    expectProblem(
      'ai_actions',
      sample('ai_actions', (d) => {
        delete d.action_type;
      }),
      ['action_type'],
      'required',
      /give the action an action type/,
    );
    expectProblem(
      'intents',
      sample('intents', (d) => {
        d.intent_type = null;
      }),
      ['intent_type'],
      'enum',
    );
    expectProblem(
      'datasources',
      sample('datasources', (d) => {
        delete d.type;
      }),
      ['type'],
      'required',
      /give the datasource a type/,
    );
    expectProblem(
      'integrations',
      sample('integrations', (d) => {
        d.technical_id = null;
      }),
      ['technical_id'],
      'type',
    );
    expectProblem(
      'ai_functions',
      sample('ai_functions', (d) => {
        d.id = null;
      }),
      ['id'],
      'type',
    );
  });

  it('reports wrong types of the other fields', () => {
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.temparature = '0.7';
      }),
      ['temparature'],
      'type',
      /a number or null, not a string/,
    );
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.next_prompt_id = 1.5;
      }),
      ['next_prompt_id'],
      'type',
      /an integer or null, not 1.5/,
    );
    expectProblem(
      'integrations',
      sample('integrations', (d) => {
        d.tec_params = 'api_key=x';
      }),
      ['tec_params'],
      'type',
      /an object or null/,
    );
    expectProblem(
      'datasources',
      sample('datasources', (d) => {
        d.metadata = { size: 240 };
      }),
      ['metadata', 'size'],
      'type',
    );
    expectProblem(
      'intents',
      sample('intents', (d) => {
        d.parent_id = '1';
      }),
      ['parent_id'],
      'type',
    );
  });

  it('allows extra properties in free-form objects', () => {
    assert.deepEqual(
      validateDocument(
        'integrations',
        sample('integrations', (d) => {
          d.tec_params = { anything: [1], nested: { ok: true } };
        }),
      ),
      [],
    );
    assert.deepEqual(
      validateDocument(
        'datasources',
        sample('datasources', (d) => {
          d.metadata = { owner: 'ops', size: '1 KB' };
        }),
      ),
      [],
    );
  });

  it('reports function parameters that are not an object schema', () => {
    const withParameters = (parameters: unknown): JsonObject =>
      sample('ai_functions', (d) => {
        d.parameters = parameters as JsonObject;
      });
    expectProblem(
      'ai_functions',
      withParameters('order_id'),
      ['parameters'],
      'type',
      /an object or null, not a string/,
    );
    expectProblem(
      'ai_functions',
      withParameters({ type: 'array', properties: {} }),
      ['parameters', 'type'],
      'const',
      /must be "object"/,
    );
    expectProblem('ai_functions', withParameters({ type: 'object' }), ['parameters', 'properties'], 'required');
    expectProblem(
      'ai_functions',
      withParameters({ type: 'object', properties: { id: 'string' } }),
      ['parameters', 'properties', 'id'],
      'type',
    );
    expectProblem(
      'ai_functions',
      withParameters({ type: 'object', properties: { id: { description: 'x' } } }),
      ['parameters', 'properties', 'id', 'type'],
      'required',
      /give the parameter a type/,
    );
    expectProblem(
      'ai_functions',
      withParameters({ type: 'object', properties: {}, required: [1] }),
      ['parameters', 'required', 0],
      'type',
    );
    assert.deepEqual(validateDocument('ai_functions', withParameters({ type: 'object', properties: {} })), []);
  });

  it('reports prompt settings that are not JSON text and function_defs that are not a JSON array', () => {
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.settings = '{"language":}';
      }),
      ['settings'],
      'jsonText',
      /^settings: must hold JSON text \(Expected a value at position 12\)$/,
    );
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.function_defs = '{"name":"f"}';
      }),
      ['function_defs'],
      'jsonText',
      /^function_defs: must hold JSON array text, not an object$/,
    );
    expectProblem(
      'ai_prompts',
      sample('ai_prompts', (d) => {
        d.function_defs = '[1,]';
      }),
      ['function_defs'],
      'jsonText',
      /Trailing comma/,
    );
  });

  it('reports an agent prompt element with a bad voice or no name at its path', () => {
    const agent = (change: (element: JsonObject) => void): JsonObject =>
      sample('agents', (d) => {
        const element = ((d.configuration as JsonObject).prompt as JsonObject[])[1];
        assert.ok(element);
        change(element);
      });
    expectProblem(
      'agents',
      agent((e) => {
        e.voice = 'robot';
      }),
      ['configuration', 'prompt', 1, 'voice'],
      'enum',
      /^configuration\.prompt\[1\]\.voice: must be one of "alloy"/,
    );
    expectProblem(
      'agents',
      agent((e) => {
        delete e.name;
      }),
      ['configuration', 'prompt', 1, 'name'],
      'required',
      /give the prompt element a name/,
    );
    expectProblem(
      'agents',
      agent((e) => {
        e.initial_respone = 'x';
      }),
      ['configuration', 'prompt', 1, 'initial_respone'],
      'additionalProperties',
      /did you mean "initial_response"/,
    );
  });

  it('reports function definitions of a function_defs document at their paths', () => {
    const definition = {
      type: 'function',
      name: 'f',
      description: 'd',
      parameters: { type: 'object', properties: {} },
    };
    assert.deepEqual(validateDocument('function_defs', [definition, { ...definition, name: 'g' }]), []);
    expectProblem(
      'function_defs',
      [definition, { ...definition, type: 'tool' }],
      [1, 'type'],
      'const',
      /must be "function"/,
    );
    expectProblem(
      'function_defs',
      [{ ...definition, nmae: 'x' }],
      [0, 'nmae'],
      'additionalProperties',
      /did you mean "name"/,
    );
    expectProblem(
      'function_defs',
      [definition, definition],
      [1, 'name'],
      'uniqueName',
      /already the name of definition \[0\]/,
    );
  });

  it('accepts a new agent prompt element with only the fields a save sends', () => {
    const doc = sample('agents', (d) => {
      ((d.configuration as JsonObject).prompt as JsonObject[]).push({
        name: 'New',
        prompt: 'Say hi.',
        initial_response: 'Hi',
        voice: 'echo',
      });
    });
    assert.deepEqual(validateDocument('agents', doc), []);
  });
});

describe('schemas: the prompt test suite schema and the suite engine', () => {
  const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, 'prompttest.schema.json'), 'utf8')) as Schema;
  const definitions = asSchema(schema.definitions);
  const caseFields = propertiesOf(asSchema(definitions.case));
  const turnFields = propertiesOf(asSchema(definitions.turn));
  const assertions = propertiesOf(asSchema((asSchema(definitions.expectation).anyOf as unknown[])[0]));
  const described = (fields: Schema): string[] =>
    Object.keys(fields).filter((name) => typeof asSchema(fields[name]).description !== 'string');

  it('has exactly the fields the engine reads, each with a description for hovers and completion', () => {
    const outputs = [...OUTPUTS.ai_prompts, ...OUTPUTS.integrations];
    const turnOutputs = ['prompt', ...OUTPUTS.ai_prompts];
    const fields: Array<[string, Schema, readonly string[]]> = [
      ['the suite', propertiesOf(schema), ['$schema', 'target', 'prompt', 'integration', 'variants', 'cases']],
      ['a case', caseFields, CASE_KEYS],
      ["a case's expect", propertiesOf(asSchema(caseFields.expect)), outputs],
      ['a turn', turnFields, TURN_KEYS],
      ["a turn's expect", propertiesOf(asSchema(turnFields.expect)), turnOutputs],
      ['the assertions', assertions, ASSERTIONS],
    ];
    for (const [what, properties, engine] of fields) {
      assert.deepEqual(
        Object.keys(properties).sort(),
        [...engine].sort(),
        `${what}: the schema's fields and the engine's`,
      );
      assert.deepEqual(described(properties), [], `${what}: fields without a description`);
    }
  });

  it('names the command-line tool as installed users run it', () => {
    assert.match(String(schema.description), /`convai test`/);
    assert.doesNotMatch(readFileSync(path.join(SCHEMA_DIR, 'prompttest.schema.json'), 'utf8'), /dist\/cli\.js/);
  });
});

describe('schemas: the judge file schema and its reader', () => {
  const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, 'judgetest.schema.json'), 'utf8')) as Schema;
  const labelFields = propertiesOf(asSchema(asSchema(schema.definitions).label));

  it('has exactly the fields the reader reads, each with a description', () => {
    for (const [what, properties, reader] of [
      ['the file', propertiesOf(schema), JUDGE_FILE_KEYS],
      ['a label', labelFields, LABEL_KEYS],
    ] as const) {
      assert.deepEqual(
        Object.keys(properties).sort(),
        [...reader].sort(),
        `${what}: the schema's fields and the reader's`,
      );
      assert.deepEqual(
        Object.keys(properties).filter((name) => typeof asSchema(properties[name]).description !== 'string'),
        [],
        `${what}: fields without a description`,
      );
    }
  });

  it('is the schema VS Code gives *.judgetest.json files', () => {
    const manifest = JSON.parse(readFileSync(path.resolve(SCHEMA_DIR, '../package.json'), 'utf8')) as {
      contributes: { jsonValidation: Array<{ fileMatch: string; url: string }> };
    };
    assert.ok(
      manifest.contributes.jsonValidation.some(
        (v) => v.fileMatch === '*.judgetest.json' && v.url === './schemas/judgetest.schema.json',
      ),
    );
  });
});
