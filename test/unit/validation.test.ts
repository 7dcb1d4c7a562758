import * as assert from 'node:assert/strict';
import { type Problem, summarizeProblems, validateDocument } from '../../src/core/validation';

const problem = (message: string): Problem => ({ path: [], message, keyword: 'x' });

describe('validation: messages', () => {
  it('names the field and the fix for a missing required field', () => {
    assert.deepEqual(validateDocument('ai_prompts', {}), [
      { path: ['name'], message: 'name: required, give the prompt a name', keyword: 'required' },
    ]);
    const messages = validateDocument('integrations', { name: 'x' }).map((p) => p.message);
    assert.deepEqual(messages, [
      'system: required, give the integration a system',
      'technical_id: required, give the integration a technical id',
    ]);
  });

  it('lists an enum’s values with their readable names, once even when the type is wrong too', () => {
    assert.deepEqual(validateDocument('ai_prompts', { name: 'p', mode: 'on' }), [
      {
        path: ['mode'],
        message: 'mode: must be one of 1 (Activated), 2 (Deactivated), 3 (Simulated)',
        keyword: 'enum',
      },
    ]);
  });

  it('suggests a known field only when it is close', () => {
    const messages = (extra: string): string[] =>
      validateDocument('ai_prompts', { name: 'p', [extra]: 1 }).map((p) => p.message);
    assert.deepEqual(messages('temperature'), ['temperature: unknown field; did you mean "temparature"?']);
    assert.deepEqual(messages('maxtokens'), ['maxtokens: unknown field; did you mean "max_tokens"?']);
    assert.deepEqual(messages('nmae'), ['nmae: unknown field; did you mean "name"?']);
    assert.deepEqual(messages('x'), ['x: unknown field']);
    assert.deepEqual(messages('colour'), ['colour: unknown field']);
  });

  it('says what was found for a wrong type', () => {
    assert.deepEqual(
      validateDocument('ai_prompts', { name: 'p', max_tokens: [300] }).map((p) => p.message),
      ['max_tokens: must be an integer or null, not an array'],
    );
    assert.deepEqual(
      validateDocument('tenants', { name: true }).map((p) => p.message),
      ['name: must be a string, not a boolean'],
    );
  });

  it('reports a document that is not an object at the document itself', () => {
    assert.deepEqual(validateDocument('agents', [1]), [
      { path: [], message: 'document: must be an object, not an array', keyword: 'type' },
    ]);
    assert.deepEqual(
      validateDocument('agents', null).map((p) => p.message),
      ['document: must be an object, not null'],
    );
  });

  it('writes nested paths with indexes and quotes keys that are not names', () => {
    const agent = { name: 'a', configuration: { prompt: [{ name: 'x' }, { name: 'y', voice: 'robot' }] } };
    assert.deepEqual(validateDocument('agents', agent)[0]?.path, ['configuration', 'prompt', 1, 'voice']);
    const fn = {
      name: 'f',
      parameters: {
        type: 'object',
        properties: { 'order id': { type: 'string' }, '0': { type: 1, description: 'x' } },
      },
    };
    assert.deepEqual(
      validateDocument('ai_functions', fn).map((p) => [p.path, p.message]),
      [
        [['parameters', 'properties', '0', 'type'], 'parameters.properties["0"].type: must be a string, not 1'],
        [
          ['parameters', 'properties', 'order id', 'description'],
          'parameters.properties["order id"].description: required, give the parameter a description',
        ],
      ],
    );
  });

  it('unescapes JSON Pointer characters in property names', () => {
    assert.deepEqual(
      validateDocument('tenants', { name: 't', 'a/b~c': 1 }).map((p) => p.path),
      [['a/b~c']],
    );
  });
});

describe('validation: JSON held in a prompt’s strings', () => {
  const prompt = (fields: Record<string, unknown>): Problem[] =>
    validateDocument('ai_prompts', { name: 'p', ...fields });

  it('accepts JSON text, empty text and null', () => {
    const definition = {
      type: 'function',
      name: 'f',
      description: 'd',
      parameters: { type: 'object', properties: {} },
    };
    assert.deepEqual(prompt({ settings: '{"language":"en"}', function_defs: JSON.stringify([definition]) }), []);
    assert.deepEqual(prompt({ settings: '', function_defs: '  ' }), []);
    assert.deepEqual(prompt({ settings: null, function_defs: null }), []);
    assert.deepEqual(prompt({ settings: '"a string is JSON too"' }), []);
  });

  it('reports text that is not JSON with the position of the fault', () => {
    assert.deepEqual(prompt({ settings: '{"tone": }' }), [
      {
        path: ['settings'],
        message: 'settings: must hold JSON text (Expected a value at position 9)',
        keyword: 'jsonText',
      },
    ]);
    assert.match(
      prompt({ settings: "{'tone': 'x'}" })[0]?.message ?? '',
      /^settings: must hold JSON text \(.+ at position 1\)$/,
    );
  });

  it('checks the function definitions inside function_defs as its own document does', () => {
    assert.deepEqual(
      prompt({ function_defs: '[{"type":"function"}]' }).map((p) => p.message),
      [
        'function_defs: [0].name: required, give the function definition a function name',
        'function_defs: [0].description: required, give the function definition a function description',
        'function_defs: [0].parameters: required, give the function definition its parameters',
      ],
    );
  });

  it('wants an array in function_defs', () => {
    assert.deepEqual(
      prompt({ function_defs: '{}' }).map((p) => p.message),
      ['function_defs: must hold JSON array text, not an object'],
    );
    assert.deepEqual(
      prompt({ function_defs: '[' }).map((p) => p.keyword),
      ['jsonText'],
    );
  });

  it('leaves strings of other kinds alone and checks no non-string value twice', () => {
    assert.deepEqual(validateDocument('ai_actions', { name: 'a', action_type: 1, speak: '{' }), []);
    assert.deepEqual(
      prompt({ settings: 5 }).map((p) => p.keyword),
      ['type'],
    );
  });
});

describe('validation: summarizeProblems', () => {
  it('counts and lists the problems, at most max of them', () => {
    assert.equal(summarizeProblems([]), 'no problems');
    assert.equal(summarizeProblems([problem('a: x')]), '1 problem: a: x');
    assert.equal(summarizeProblems([problem('a'), problem('b'), problem('c')], 2), '3 problems: a; b; and 1 more');
    const seven = ['1', '2', '3', '4', '5', '6', '7'].map(problem);
    assert.equal(summarizeProblems(seven), '7 problems: 1; 2; 3; 4; 5; and 2 more');
    assert.equal(summarizeProblems(seven.slice(0, 5)), '5 problems: 1; 2; 3; 4; 5');
  });
});
