import * as assert from 'node:assert/strict';
import { schemaFailures, schemaProblem } from '../../src/core/validation';

/** Failures of `value`, after making sure the schema is one (an invalid schema would fail every value). */
function failures(schema: Record<string, unknown>, value: unknown): string[] {
  assert.equal(schemaProblem(schema), undefined, `${JSON.stringify(schema)} is a schema`);
  return schemaFailures(schema, value);
}

/** Each keyword with a value that passes it and one that fails it, and the failure expected. */
const KEYWORDS: Array<[string, Record<string, unknown>, unknown, unknown, string]> = [
  ['type', { type: 'string' }, 'a', 1, 'value must be string'],
  ['type: several', { type: ['string', 'null'] }, null, 1, 'value must be string or null'],
  ['type: integer', { type: 'integer' }, 2, 2.5, 'value must be integer'],
  ['type: number takes integers', { type: 'number' }, 2, '2', 'value must be number'],
  ['type: object is no array', { type: 'object' }, {}, [], 'value must be object'],
  [
    'enum',
    { enum: ['open', { a: [1] }] },
    { a: [1] },
    'lost',
    'value must be equal to one of the allowed values ("open", {"a":[1]})',
  ],
  ['const', { const: { a: 1, b: 2 } }, { b: 2, a: 1 }, { a: 1 }, 'value must be equal to constant {"a":1,"b":2}'],
  ['required', { required: ['id'] }, { id: 1 }, { name: 1 }, "value must have required property 'id'"],
  ['properties', { properties: { 'a/b': { type: 'string' } } }, { 'a/b': 'x' }, { 'a/b': 1 }, '/a~1b must be string'],
  [
    'additionalProperties: false',
    { properties: { a: {} }, additionalProperties: false },
    { a: 1 },
    { a: 1, b: 2 },
    "value must NOT have additional property 'b'",
  ],
  [
    'additionalProperties: a schema',
    { properties: { a: {} }, additionalProperties: { type: 'number' } },
    { a: 'x', b: 2 },
    { b: 'x' },
    '/b must be number',
  ],
  [
    'patternProperties',
    { patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
    { 'x-a': 'y' },
    { 'x-a': 1 },
    '/x-a must be string',
  ],
  ['items: a schema', { items: { type: 'number' } }, [1, 2], [1, 'x'], '/1 must be number'],
  ['items: a tuple', { items: [{ type: 'string' }, { type: 'number' }] }, ['a', 1, true], [1], '/0 must be string'],
  [
    'additionalItems: false',
    { items: [{}], additionalItems: false },
    [1],
    [1, 2],
    'value must NOT have more than 1 items',
  ],
  [
    'additionalItems: a schema',
    { items: [{}], additionalItems: { type: 'string' } },
    [1, 'a'],
    [1, 'a', 2],
    '/2 must be string',
  ],
  ['minItems', { minItems: 2 }, [1, 2], [1], 'value must NOT have fewer than 2 items'],
  ['maxItems', { maxItems: 1 }, [1], [1, 2], 'value must NOT have more than 1 items'],
  [
    'uniqueItems',
    { uniqueItems: true },
    [{ a: 1 }, { a: 2 }],
    [1, { a: 1 }, { a: 1 }],
    'value must NOT have duplicate items (items 1 and 2 are equal)',
  ],
  ['contains', { contains: { const: 3 } }, [1, 3], [1, 2], 'value must contain at least 1 valid item'],
  ['minLength counts an emoji as one', { minLength: 2 }, '👋a', '👋', 'value must NOT have fewer than 2 characters'],
  ['maxLength', { maxLength: 2 }, '👋👋', 'abc', 'value must NOT have more than 2 characters'],
  ['pattern', { pattern: '^A-\\d+$' }, 'A-17', 'B-1', 'value must match pattern "^A-\\d+$"'],
  ['minimum', { minimum: 1 }, 1, 0, 'value must be >= 1'],
  ['maximum', { maximum: 1 }, 1, 2, 'value must be <= 1'],
  ['exclusiveMinimum', { exclusiveMinimum: 1 }, 1.5, 1, 'value must be > 1'],
  ['exclusiveMaximum', { exclusiveMaximum: 1 }, 0.5, 1, 'value must be < 1'],
  ['multipleOf, decimal fractions as people count', { multipleOf: 0.1 }, 0.3, 0.35, 'value must be a multiple of 0.1'],
  ['minProperties', { minProperties: 1 }, { a: 1 }, {}, 'value must NOT have fewer than 1 properties'],
  ['maxProperties', { maxProperties: 1 }, { a: 1 }, { a: 1, b: 2 }, 'value must NOT have more than 1 properties'],
  [
    'propertyNames',
    { propertyNames: { pattern: '^[a-z]+$' } },
    { ab: 1 },
    { aB: 1 },
    'value property name \'aB\' must match pattern "^[a-z]+$"',
  ],
  [
    'dependencies: names',
    { dependencies: { card: ['billing'] } },
    { card: 1, billing: 2 },
    { card: 1 },
    "value must have property 'billing' when property 'card' is present",
  ],
  [
    'dependencies: a schema',
    { dependencies: { card: { required: ['cvc'] } } },
    { name: 1 },
    { card: 1 },
    "value must have required property 'cvc'",
  ],
  [
    'dependentRequired',
    { dependentRequired: { card: ['billing'] } },
    { billing: 1 },
    { card: 1 },
    "value must have property 'billing' when property 'card' is present",
  ],
  ['anyOf', { anyOf: [{ type: 'string' }, { minimum: 3 }] }, 5, 1, 'value must match a schema in anyOf'],
  [
    'oneOf',
    { oneOf: [{ type: 'integer' }, { minimum: 3 }] },
    1,
    5,
    'value must match exactly one schema in oneOf (it matches 2)',
  ],
  ['allOf', { allOf: [{ type: 'integer' }, { minimum: 3 }] }, 5, 1, 'value must be >= 3'],
  ['not', { not: { type: 'null' } }, 1, null, 'value must NOT be valid against the schema in "not"'],
  [
    'if/then',
    { if: { properties: { kind: { const: 'a' } } }, then: { required: ['a'] }, else: { required: ['b'] } },
    { kind: 'a', a: 1 },
    { kind: 'a', b: 1 },
    "value must have required property 'a'",
  ],
  [
    'if/else',
    { if: { properties: { kind: { const: 'a' } } }, then: { required: ['a'] }, else: { required: ['b'] } },
    { kind: 'b', b: 1 },
    { kind: 'b', a: 1 },
    "value must have required property 'b'",
  ],
  [
    '$ref: #/definitions',
    { definitions: { id: { type: 'integer' } }, properties: { id: { $ref: '#/definitions/id' } } },
    { id: 1 },
    { id: 'x' },
    '/id must be integer',
  ],
  [
    '$ref: #/$defs',
    { $defs: { id: { type: 'integer' } }, items: { $ref: '#/$defs/id' } },
    [1],
    ['x'],
    '/0 must be integer',
  ],
  [
    '$ref: # (a tree)',
    { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } },
    { children: [{ children: [] }] },
    { children: [{ children: 1 }] },
    '/children/0/children must be array',
  ],
  ['false schema', { properties: { a: false } }, {}, { a: 1 }, '/a is not allowed here (the schema is false)'],
  [
    'annotations constrain nothing',
    {
      title: 't',
      description: 'd',
      default: 1,
      examples: [1],
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'x',
      $comment: 'c',
      format: 'email',
      maximum: 1,
    },
    'not an email',
    2,
    'value must be <= 1',
  ],
];

describe('json schema: each keyword passes and fails', () => {
  for (const [name, schema, passing, failing, message] of KEYWORDS) {
    it(name, () => {
      assert.deepEqual(failures(schema, passing), []);
      assert.deepEqual(failures(schema, failing), [message]);
    });
  }

  it('applies a keyword for one type only to values of that type (`type` is the one to say what is wanted)', () => {
    const schema = { minLength: 9, minimum: 9, minItems: 9, required: ['a'] };
    assert.deepEqual(
      ['x', ['x'], 1, {}, null, true].map((value) => failures(schema, value)),
      [
        ['value must NOT have fewer than 9 characters'],
        ['value must NOT have fewer than 9 items'],
        ['value must be >= 9'],
        ["value must have required property 'a'"],
        [],
        [],
      ],
    );
  });

  it('reports every failure, each with its path', () => {
    const schema = {
      type: 'object',
      required: ['status', 'id'],
      properties: { items: { type: 'array', items: { type: 'integer' } } },
    };
    assert.deepEqual(failures(schema, { items: [1, 'a', 2.5] }), [
      "value must have required property 'status'",
      "value must have required property 'id'",
      '/items/1 must be integer',
      '/items/2 must be integer',
    ]);
  });
});

describe('json schema: what is no schema', () => {
  const problems: Array<[string, unknown, RegExp]> = [
    ['no object', 'string', /^must be a JSON Schema object, such as \{ "type": "object" \}$/],
    ['an array', [], /^must be a JSON Schema object/],
    [
      'an unknown type, with the closest',
      { type: 'strin' },
      /^\/type: "strin" is no JSON Schema type; use one of array, boolean, integer, null, number, object, string \(did you mean "string"\?\)$/,
    ],
    [
      'an unknown type in a list',
      { properties: { a: { type: ['string', 'nonsense'] } } },
      /^\/properties\/a\/type: "nonsense" is no JSON Schema type/,
    ],
    ['required as a text', { required: 'x' }, /^\/required: must be an array of property names, not "x"$/],
    [
      'an invalid pattern',
      { pattern: '(' },
      /^\/pattern: "\(" is not a valid regular expression \(Invalid regular expression: .*\)$/,
    ],
    [
      'an invalid patternProperties key',
      { patternProperties: { '[': {} } },
      /^\/patternProperties\/\[: "\[" is not a valid regular expression/,
    ],
    [
      'a $ref to nothing',
      { items: { $ref: '#/definitions/missing' } },
      /^\/items\/\$ref: "#\/definitions\/missing" points at nothing in this schema$/,
    ],
    [
      'a $ref elsewhere',
      { $ref: 'https://example.com/s.json' },
      /^\/\$ref: "https:\/\/example.com\/s.json" is not in this schema; only local references/,
    ],
    ['a $ref to no schema', { required: ['a'], $ref: '#/required' }, /^\/\$ref: "#\/required" points at no schema/],
    [
      'a $ref that loops',
      { definitions: { a: { $ref: '#/definitions/b' }, b: { allOf: [{ $ref: '#/definitions/a' }] } } },
      /: its \$ref leads back to it without stepping into the value, so the check would never end$/,
    ],
    ['the whole schema as its own $ref', { $ref: '#' }, /^#: its \$ref leads back/],
    [
      'a misspelt keyword, with the closest',
      { requried: ['a'] },
      /^\/requried: unknown keyword; did you mean "required"\?$/,
    ],
    [
      'an unsupported keyword',
      { unevaluatedProperties: false },
      /^\/unevaluatedProperties: unknown keyword \(not one of the draft-07 keywords this check supports\)$/,
    ],
    ['a negative count', { minLength: -1 }, /^\/minLength: must be a whole number, 0 or more, not -1$/],
    [
      'draft-04 exclusiveMinimum',
      { minimum: 1, exclusiveMinimum: true },
      /^\/exclusiveMinimum: must be a number, not true$/,
    ],
    ['multipleOf 0', { multipleOf: 0 }, /^\/multipleOf: must be a number greater than 0, not 0$/],
    ['an empty anyOf', { anyOf: [] }, /^\/anyOf: must be a non-empty array of schemas, not an array$/],
    [
      'a subschema that is no schema',
      { properties: { a: 'string' } },
      /^\/properties\/a: must be a schema \(an object, or true or false\), not "string"$/,
    ],
    ['a title that is no text', { title: 1 }, /^\/title: must be a text, not 1$/],
  ];
  for (const [name, schema, message] of problems) {
    it(name, () => assert.match(schemaProblem(schema) ?? '', message));
  }

  it('names every problem, and a value checked against an invalid schema fails saying why', () => {
    assert.equal(
      schemaProblem({ type: 'strin', required: 'x' }),
      '/type: "strin" is no JSON Schema type; use one of array, boolean, integer, null, number, object, string (did you mean "string"?); /required: must be an array of property names, not "x"',
    );
    assert.deepEqual(schemaFailures({ type: 'nonsense' }, 1), [
      'the schema is invalid: /type: "nonsense" is no JSON Schema type; use one of array, boolean, integer, null, number, object, string',
    ]);
  });

  it('accepts recursion that steps into the value, and true and false as subschemas', () => {
    assert.equal(
      schemaProblem({
        definitions: { node: { properties: { next: { $ref: '#/definitions/node' } } } },
        $ref: '#/definitions/node',
      }),
      undefined,
    );
    assert.equal(
      schemaProblem({ properties: { a: true, b: false }, additionalProperties: false, items: [true] }),
      undefined,
    );
  });
});
