import * as assert from 'node:assert/strict';
import aiActions from '../../schemas/ai_actions.schema.json';
import aiPrompts from '../../schemas/ai_prompts.schema.json';
import intents from '../../schemas/intents.schema.json';
import type { JsonObject } from '../../src/core/json';
import { formatDocument, type TextRange } from '../../src/core/json-document';
import {
  danglingMessage,
  danglingReferences,
  definedFunctions,
  findFunctionDefinitionNames,
  findReferenceValues,
  nameTarget,
  namesId,
  REFERENCE_FIELDS,
  type ReferenceValue,
} from '../../src/core/references';
import type { TenantSegment } from '../../src/core/resource-kind';

const PROMPT = formatDocument({
  id: 3,
  name: 'Order Triage',
  description: 'Classifies',
  system: 'Answer with one word.',
  next_prompt_id: 4,
  exit_prompt_id: null,
  voice: 'alloy',
});

function textAt(text: string, range: TextRange): string {
  return text.slice(range.offset, range.offset + range.length);
}

function summary(text: string, values: readonly ReferenceValue[]): string[] {
  return values.map((v) => `${v.reference.field}=${textAt(text, v)}→${String(v.id)}`);
}

describe('references: the reference fields', () => {
  const schemas: Partial<Record<TenantSegment, { properties: Record<string, { type?: unknown }> }>> = {
    ai_prompts: aiPrompts,
    intents,
    ai_actions: aiActions,
  };

  it('allow null exactly where the kind schema does', () => {
    for (const { from, field, nullable } of REFERENCE_FIELDS) {
      const type = schemas[from]?.properties[field]?.type;
      assert.ok(type !== undefined, `${from}.${field} is in its schema`);
      assert.equal(nullable, Array.isArray(type) && type.includes('null'), `${from}.${field}`);
    }
  });
});

describe('references: findReferenceValues', () => {
  it('finds each reference value of a prompt with its id, null for none', () => {
    assert.deepEqual(summary(PROMPT, findReferenceValues(PROMPT, 'ai_prompts')), [
      'next_prompt_id=4→4',
      'exit_prompt_id=null→null',
    ]);
  });

  it('knows the fields of intents and actions, and that other kinds have none', () => {
    const intent = formatDocument({ id: 2, parent_id: 1, ai_prompt_id: 5, ai_actions: [{ id: 9, name: 'x' }] });
    assert.deepEqual(summary(intent, findReferenceValues(intent, 'intents')), ['parent_id=1→1', 'ai_prompt_id=5→5']);
    const action = formatDocument({ id: 7, integration_id: 12 });
    assert.deepEqual(
      findReferenceValues(action, 'ai_actions').map((v) => [v.reference.to, v.id]),
      [['integrations', 12]],
    );
    assert.deepEqual(findReferenceValues(formatDocument({ id: 1, next_prompt_id: 3 }), 'agents'), []);
  });

  it('does not count the same key names in nested objects and arrays', () => {
    const text = formatDocument({
      id: 3,
      settings: { next_prompt_id: 8 },
      list: [{ exit_prompt_id: 9 }],
      exit_prompt_id: 2,
    });
    assert.deepEqual(summary(text, findReferenceValues(text, 'ai_prompts')), ['exit_prompt_id=2→2']);
  });

  it('finds the value but no id in a string, a fraction, a negative number or an object', () => {
    const text = '{ "next_prompt_id": "4", "exit_prompt_id": 4.5 }';
    assert.deepEqual(summary(text, findReferenceValues(text, 'ai_prompts')), [
      'next_prompt_id="4"→undefined',
      'exit_prompt_id=4.5→undefined',
    ]);
    const more = '{ "next_prompt_id": -1, "exit_prompt_id": { "id": 4 } }';
    assert.deepEqual(
      findReferenceValues(more, 'ai_prompts').map((v) => v.id),
      [undefined, undefined],
    );
    assert.deepEqual(findReferenceValues(more, 'ai_prompts').filter(namesId), []);
  });

  it('reads an integral number written as one (4.0 is id 4)', () => {
    assert.deepEqual(
      findReferenceValues('{ "next_prompt_id": 4.0 }', 'ai_prompts').map((v) => v.id),
      [4],
    );
  });

  it('finds references in a text with syntax errors elsewhere, and none in a text that is no object', () => {
    const broken = '{\n  "name": "x"\n  "next_prompt_id": 4,\n  "voice": \n}';
    assert.deepEqual(summary(broken, findReferenceValues(broken, 'ai_prompts')), ['next_prompt_id=4→4']);
    for (const text of ['', 'not json', '[{ "next_prompt_id": 4 }]', '"next_prompt_id"', '{ "next_prompt_id": }']) {
      assert.deepEqual(findReferenceValues(text, 'ai_prompts'), [], text);
    }
  });

  it('gives offsets into the text as it is, CRLF line ends included', () => {
    const crlf = PROMPT.replace(/\n/g, '\r\n');
    const values = findReferenceValues(crlf, 'ai_prompts');
    assert.deepEqual(summary(crlf, values), ['next_prompt_id=4→4', 'exit_prompt_id=null→null']);
    assert.equal(values[0]?.offset, crlf.indexOf('"next_prompt_id": 4') + '"next_prompt_id": '.length);
  });
});

describe('references: dangling references', () => {
  const text = formatDocument({ id: 3, next_prompt_id: 99, exit_prompt_id: 4 });
  const values = findReferenceValues(text, 'ai_prompts');
  const prompts: JsonObject[] = [
    { id: 3, name: 'Order Triage' },
    { id: 4, name: 'Human Handoff' },
  ];

  it('are the ids the loaded listing does not hold; null and non-ids are not', () => {
    const dangling = danglingReferences(values, () => prompts);
    assert.deepEqual(
      dangling.map((v) => [v.reference.field, v.id, textAt(text, v)]),
      [['next_prompt_id', 99, '99']],
    );
    const other = findReferenceValues('{ "next_prompt_id": null, "exit_prompt_id": "x" }', 'ai_prompts');
    assert.deepEqual(
      danglingReferences(other, () => []),
      [],
    );
  });

  it('are none where the listing of the target kind failed', () => {
    assert.deepEqual(
      danglingReferences(values, () => undefined),
      [],
    );
    const intent = findReferenceValues(formatDocument({ parent_id: 50, ai_prompt_id: 60 }), 'intents');
    const onlyIntents = danglingReferences(intent, (segment) => (segment === 'intents' ? [] : undefined));
    assert.deepEqual(
      onlyIntents.map((v) => v.reference.field),
      ['parent_id'],
    );
  });

  it('name the field, the missing id and the fix', () => {
    const [dangling] = danglingReferences(values, () => prompts);
    assert.ok(dangling);
    assert.equal(
      danglingMessage(dangling, 1),
      'next_prompt_id: tenant 1 holds no AI Prompt 99; choose one of its AI Prompts (completion lists them) or null',
    );
    const action = danglingReferences(findReferenceValues('{"integration_id": 5}', 'ai_actions'), () => [])[0];
    assert.ok(action);
    assert.match(
      danglingMessage({ ...action, reference: { ...action.reference, nullable: false } }, 2),
      /^integration_id: tenant 2 holds no Integration 5; choose one of its Integrations \(completion lists them\)$/,
    );
  });
});

describe('references: naming a target', () => {
  it('gives the name, kind and id, and the description where the listing has one', () => {
    assert.deepEqual(
      nameTarget('ai_prompts', { id: 3, name: 'Order Resolution', description: ' Answers the request ' }),
      {
        name: 'Order Resolution',
        label: 'AI Prompt 3',
        heading: 'AI Prompt 3 · Order Resolution',
        description: 'Answers the request',
      },
    );
    assert.deepEqual(nameTarget('integrations', { id: 5, name: 'CRM', description: '' }), {
      name: 'CRM',
      label: 'Integration 5',
      heading: 'Integration 5 · CRM',
    });
  });

  it('names an intent by its display name, as the tree does', () => {
    assert.equal(nameTarget('intents', { id: 1, name: 'orders', display_name: 'Orders' }).heading, 'Intent 1 · Orders');
  });
});

describe('references: function definitions', () => {
  const defs = `${JSON.stringify(
    [
      {
        type: 'function',
        name: 'get_order_status',
        description: 'd',
        parameters: { type: 'object', properties: { name: { type: 'string' } } },
      },
      { type: 'function', name: 'not_a_function', parameters: { name: 'nested' } },
      { type: 'function', description: 'no name' },
      'not an object',
    ],
    null,
    2,
  )}\n`;

  it('finds each definition own name, inside its quotes, but no nested name', () => {
    const names = findFunctionDefinitionNames(defs);
    assert.deepEqual(
      names.map((n) => [n.name, textAt(defs, n)]),
      [
        ['get_order_status', 'get_order_status'],
        ['not_a_function', 'not_a_function'],
      ],
    );
  });

  it('finds none in text that is no array', () => {
    for (const text of ['', '{ "name": "get_order_status" }', 'not json'])
      assert.deepEqual(findFunctionDefinitionNames(text), [], text);
  });

  it('works on CRLF text and text with syntax errors', () => {
    const crlf = defs.replace(/\n/g, '\r\n');
    assert.deepEqual(
      findFunctionDefinitionNames(crlf).map((n) => textAt(crlf, n)),
      ['get_order_status', 'not_a_function'],
    );
    const broken = '[\n  { "name": "get_order_status" "type": "function" },\n  { "name": \n]';
    assert.deepEqual(
      findFunctionDefinitionNames(broken).map((n) => n.name),
      ['get_order_status'],
    );
  });

  it('matches names to the tenant AI functions', () => {
    const functions: JsonObject[] = [
      { id: 8, name: 'create_ticket' },
      { id: 7, name: 'get_order_status' },
      { id: 9, name: 'get_order_status' },
    ];
    assert.deepEqual(
      definedFunctions(findFunctionDefinitionNames(defs), functions).map((d) => [d.definition.name, d.id]),
      [['get_order_status', 7]],
    );
  });
});
