import * as assert from 'node:assert/strict';
import {
  checkDefinitionObject,
  parameterNames,
  parseDefinition,
  placeholderAt,
} from '../../src/core/request-definition';

type Seen = [severity: string, snippet: string, message: string];

/** Each problem as its severity, the text it covers, and its message. */
function problems(text: string): Seen[] {
  return parseDefinition(text).problems.map((p) => [p.severity, text.slice(p.offset, p.offset + p.length), p.message]);
}

/** A definition text with `fields` replacing or adding top-level fields (undefined drops one). */
function doc(fields: Record<string, unknown> = {}, parameters: Record<string, unknown> = PARAMETERS): string {
  const base: Record<string, unknown> = {
    name: 'Weather',
    url: 'https://api.example.com/weather/{{city}}',
    method: 'GET',
    api_key: '${secret:weather}',
    headers: { Authorization: 'Bearer {{api_key}}' },
    function_definition: {
      type: 'function',
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters,
    },
    ...fields,
  };
  return JSON.stringify(base, null, 2);
}

const PARAMETERS = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city' } },
  required: ['city'],
};

describe('request definition: a valid file', () => {
  it('parses with no problems and gives the definition', () => {
    const parsed = parseDefinition(doc());
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.definition?.url, 'https://api.example.com/weather/{{city}}');
    assert.deepEqual(parsed.definition?.function_definition.parameters.required, ['city']);
  });

  it('allows comments, trailing commas and a $schema reference', () => {
    const text = `// Weather lookup
{
  "$schema": "../schemas/apirequest.schema.json",
  /* the endpoint */
  "url": "https://x/status", // no placeholders
  "method": "POST",
  "function_definition": {
    "type": "function", "name": "status", "description": "Service status",
    "parameters": { "type": "object", "properties": {}, },
  },
  "fixed_parameters": { "list": [1, 2,], },
}
`;
    const parsed = parseDefinition(text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.definition?.fixed_parameters, { list: [1, 2] });
    assert.equal(parsed.definition?.url, 'https://x/status');
  });

  it('locates problems exactly in a text with comments and trailing commas', () => {
    const text = `{ /* {{x}} */ "url": "https://x/{{a}}", "method": "POST", // {{a}}
  "function_definition": { "type": "function", "name": "n", "description": "d", "parameters": { "type": "object", }, }, }`;
    assert.deepEqual(
      problems(text).map((p) => [p[1], text.indexOf(p[1])]),
      [['"parameters"', text.indexOf('"parameters"')]],
    );
    const fixed = text.replace('"type": "object", }', '"type": "object", "properties": {}, }');
    assert.deepEqual(
      problems(fixed).map((p) => p[1]),
      ['{{a}}'],
    );
    assert.equal(parseDefinition(fixed).problems[0]?.offset, fixed.indexOf('{{a}}"'));
  });

  it('gives the definition when there are warnings only', () => {
    const parsed = parseDefinition(doc({ fixed_parameters: { units: 'metric' } }));
    assert.deepEqual(
      parsed.problems.map((p) => p.severity),
      ['warning'],
    );
    assert.ok(parsed.definition);
  });

  it('keeps a `__proto__` key as a key (and reports it as unknown)', () => {
    const text = '{"__proto__": {"url": "x"}}';
    assert.deepEqual(
      problems(text).find((p) => p[1] === '"__proto__"'),
      ['error', '"__proto__"', '__proto__: unknown field'],
    );
  });
});

describe('request definition: syntax', () => {
  it('reports each error where it is and gives no definition', () => {
    const text = '{\n  "url": "x"\n  "method": "GET"\n}';
    assert.deepEqual(problems(text), [['error', '"method"', 'Expected a comma']]);
    assert.equal(parseDefinition(text).definition, undefined);
  });

  it('names an unterminated comment and an empty file', () => {
    assert.deepEqual(problems('{ "url": "x" /* note')[0], ['error', '/* note', 'Unterminated comment']);
    assert.deepEqual(problems('  \n'), [['error', '  \n', 'The file is empty; expected a JSON object']]);
  });
});

describe('request definition: schema problems', () => {
  it('reports a missing properties at the parameters key (rule 5)', () => {
    assert.deepEqual(problems(doc({}, { type: 'object' })), [
      [
        'error',
        '"parameters"',
        'function_definition.parameters.properties: required (rule 5: give an empty object {} when the request takes no parameters)',
      ],
    ]);
  });

  it('reports a missing top-level field at the opening brace', () => {
    assert.deepEqual(problems(doc({ url: undefined })), [['error', '{', 'url: required, give the endpoint URL']]);
    assert.deepEqual(problems(doc({ function_definition: undefined })), [
      [
        'error',
        '{',
        'function_definition: required (rule 5: a function definition is required even when the request takes no parameters)',
      ],
    ]);
  });

  it('reports a missing function name or description at the function_definition key (rule 7)', () => {
    const text = doc({ function_definition: { type: 'function', description: 'd', parameters: PARAMETERS } });
    assert.deepEqual(problems(text), [
      [
        'error',
        '"function_definition"',
        'function_definition.name: required (rule 7: the name and description guide the AI in deciding when to call the function)',
      ],
    ]);
  });

  it('reports an unknown field at its key, suggesting a close one', () => {
    assert.deepEqual(problems(doc({ fixed_parameter: { a: 1 } })), [
      ['error', '"fixed_parameter"', 'fixed_parameter: unknown field; did you mean "fixed_parameters"?'],
    ]);
  });

  it('reports a method that is no token once, at its value', () => {
    const expected =
      'method: must be an HTTP method: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS or another token of letters and hyphens';
    assert.deepEqual(problems(doc({ method: 'GE T' })), [['error', '"GE T"', expected]]);
    assert.deepEqual(problems(doc({ method: 5 })), [['error', '5', expected]]);
  });

  it('accepts other method tokens, in any case', () => {
    for (const method of ['PATCH', 'OPTIONS', 'PURGE', 'post', 'Version-Control']) {
      assert.deepEqual(problems(doc({ method })), [], method);
    }
  });

  it('reports wrong values at the value', () => {
    const text = doc({ headers: { Authorization: 'Bearer {{api_key}}', 'X-Count': 5 }, say_before: ['hi'] });
    assert.deepEqual(problems(text), [
      ['error', '5', 'headers["X-Count"]: must be a string, not 5'],
      ['error', '[\n    "hi"\n  ]', 'say_before: must be a string, not an array'],
    ]);
  });
});

describe('request definition: placeholders', () => {
  it('reports a placeholder that names no parameter, at the placeholder itself', () => {
    assert.deepEqual(problems(doc({ url: 'https://x/{{city}}/{{town}}' })), [
      [
        'error',
        '{{town}}',
        '{{town}} names no parameter of the function definition: add "town" to parameters.properties, or fix the name',
      ],
    ]);
  });

  it('finds the placeholder exactly after escapes in the string', () => {
    const text = doc({ url: 'https://x/"q"\\\u00e9\n/{{ town }}' });
    assert.ok(text.includes('\\"q\\"\\\\é\\n/{{ town }}'));
    assert.deepEqual(
      problems(text).map((p) => p[1]),
      ['{{ town }}'],
    );
    const unicode =
      '{"url": "\\u0041\\u00e9{{town}}", "method": "POST", "function_definition": {"type": "function", "name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}}';
    assert.deepEqual(
      problems(unicode).map((p) => p[1]),
      ['{{town}}'],
    );
  });

  it('reports each occurrence, in headers too, with the field named in checkDefinitionObject', () => {
    const fields = { headers: { Authorization: 'Bearer {{api_key}}', 'X-Trace': '{{trace}}-{{trace}}' } };
    assert.deepEqual(
      problems(doc(fields)).map((p) => p[1]),
      ['{{trace}}', '{{trace}}'],
    );
    assert.deepEqual(checkDefinitionObject(JSON.parse(doc(fields))), [
      'headers["X-Trace"]: {{trace}} names no parameter of the function definition: add "trace" to parameters.properties, or fix the name',
      'headers["X-Trace"]: {{trace}} names no parameter of the function definition: add "trace" to parameters.properties, or fix the name',
    ]);
  });

  it('does not repeat a missing properties for each placeholder', () => {
    assert.deepEqual(
      problems(doc({ url: 'https://x/{{a}}/{{b}}' }, { type: 'object' })).map((p) => p[1]),
      ['"parameters"'],
    );
  });

  it('reports malformed placeholders at the exact spot', () => {
    const text = doc({ url: 'https://x/{{city}}/{{}}/{{ }}/{{first name}}/{{open' });
    assert.deepEqual(problems(text), [
      ['error', '{{}}', "{{}} has no name: write the parameter's name between the braces, such as {{city}}"],
      ['error', '{{ }}', "{{ }} has no name: write the parameter's name between the braces, such as {{city}}"],
      [
        'error',
        '{{first name}}',
        '{{first name}} is not a valid placeholder: a name starts with a letter or _ and holds only letters, digits, _ . and -',
      ],
      ['error', '{{open', '{{open is not closed: end the placeholder with }}'],
    ]);
  });

  it('reads {{{city}}} as a brace around a valid placeholder, like the builder', () => {
    assert.deepEqual(problems(doc({ url: 'https://x/{{{city}}}' })), []);
  });
});

describe('request definition: the API Key', () => {
  it('warns about {{api_key}} in the URL when it is a parameter: it is not the API Key (rule 2)', () => {
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string', description: 'c' }, api_key: { type: 'string', description: 'k' } },
      required: ['city', 'api_key'],
    };
    assert.deepEqual(problems(doc({ url: 'https://x/{{city}}?key={{api_key}}' }, parameters)), [
      [
        'warning',
        '{{api_key}}',
        '{{api_key}} in the URL is the function argument "api_key", not the API Key, which fills headers only (rule 2)',
      ],
    ]);
  });

  it('refuses {{api_key}} in the URL when no parameter has that name', () => {
    const [problem] = problems(doc({ url: 'https://x/{{city}}?key={{api_key}}' }));
    assert.equal(problem?.[0], 'error');
    assert.equal(problem?.[1], '{{api_key}}');
    assert.match(
      problem?.[2] ?? '',
      /^\{\{api_key\}\} in the URL names no parameter of the function definition; the API Key fills headers only \(rule 2\)/,
    );
  });

  it('refuses {{api_key}} in a header without an API Key', () => {
    const message = '{{api_key}} needs an API Key: set "api_key" (a literal, ${env:NAME} or ${secret:NAME})';
    for (const apiKey of [undefined, '', '  ']) {
      assert.deepEqual(
        problems(doc({ api_key: apiKey })).filter((p) => p[0] === 'error'),
        [['error', '{{api_key}}', message]],
        String(apiKey),
      );
    }
  });

  it('accepts a literal, ${env:NAME} and ${secret:NAME}', () => {
    for (const apiKey of ['k-123', '${env:WEATHER_KEY}', '${secret:weather.key}']) {
      assert.deepEqual(problems(doc({ api_key: apiKey })), [], apiKey);
    }
  });

  it('refuses a malformed reference, which would be sent as the key itself', () => {
    const [problem] = problems(doc({ api_key: '${env:}' }));
    assert.deepEqual(problem?.slice(0, 2), ['error', '"${env:}"']);
    assert.match(problem?.[2] ?? '', /^\$\{env:\} is not a valid reference/);
  });

  it('warns when an API Key is set but no header sends it', () => {
    assert.deepEqual(problems(doc({ headers: {} })), [
      [
        'warning',
        '"${secret:weather}"',
        'the API Key is never sent: no header holds {{api_key}} (rule 2); add one, such as "Authorization": "Bearer {{api_key}}"',
      ],
    ]);
  });
});

describe('request definition: parameters', () => {
  it('reports a required name missing from properties at its element', () => {
    const parameters = { ...PARAMETERS, required: ['city', 'days'] };
    assert.deepEqual(problems(doc({}, parameters)), [
      ['error', '"days"', '"days" is required but not defined in parameters.properties'],
    ]);
    assert.deepEqual(checkDefinitionObject(JSON.parse(doc({}, parameters))), [
      'function_definition.parameters.required[1]: "days" is required but not defined in parameters.properties',
    ]);
  });

  it('warns at the property when a placeholder parameter is not required: a call without it cannot be built', () => {
    assert.deepEqual(problems(doc({}, { ...PARAMETERS, required: [] })), [
      [
        'warning',
        '"city"',
        '"city" fills {{city}} but is not in parameters.required: a call without it cannot be built; add "city" to parameters.required',
      ],
    ]);
  });
});

describe('request definition: fixed parameters of a GET (rule 6)', () => {
  it('warns that they are never sent when every parameter fills a placeholder', () => {
    for (const method of ['GET', 'head']) {
      const [problem] = problems(doc({ method, fixed_parameters: { units: 'metric' } }));
      assert.deepEqual(problem?.slice(0, 2), ['warning', '"fixed_parameters"']);
      assert.match(
        problem?.[2] ?? '',
        new RegExp(
          `^fixed parameters are never sent: a ${method.toUpperCase()} sends the URL and headers only \\(rule 6\\)`,
        ),
      );
    }
  });

  it('says when they are sent when some parameter fills no placeholder', () => {
    const parameters = {
      ...PARAMETERS,
      properties: { ...PARAMETERS.properties, days: { type: 'integer', description: 'd' } },
    };
    assert.deepEqual(problems(doc({ fixed_parameters: { units: 'metric' } }, parameters)), [
      [
        'warning',
        '"fixed_parameters"',
        'fixed parameters are sent only in the query string, and only when a call has an argument that fills no placeholder; otherwise a GET sends the URL and headers only (rule 6)',
      ],
    ]);
  });

  it('says nothing for an empty object or a method with a body', () => {
    assert.deepEqual(problems(doc({ fixed_parameters: {} })), []);
    assert.deepEqual(problems(doc({ method: 'POST', fixed_parameters: { units: 'metric' } })), []);
  });
});

describe('request definition: headers', () => {
  it('refuses a header name that is not a token, at the name', () => {
    assert.deepEqual(problems(doc({ headers: { Authorization: 'Bearer {{api_key}}', 'X City': 'a' } })), [
      ['error', '"X City"', '"X City" is not a valid header name: use letters, digits and - (no spaces or colons)'],
    ]);
  });

  it('refuses a line break in a value, at the value', () => {
    assert.deepEqual(problems(doc({ headers: { Authorization: 'Bearer {{api_key}}\nX-Evil: 1' } })), [
      ['error', '"Bearer {{api_key}}\\nX-Evil: 1"', 'a header value cannot hold a line break'],
    ]);
  });
});

describe('request definition: checkDefinitionObject', () => {
  it('gives [] for a valid definition, warnings left out', () => {
    assert.deepEqual(checkDefinitionObject(JSON.parse(doc({ fixed_parameters: { a: 1 } }))), []);
  });

  it('names the field and the fix in each message', () => {
    const value = JSON.parse(doc({ url: 'https://x/{{town}}', api_key: '', method: 'GE T' })) as Record<
      string,
      unknown
    >;
    assert.deepEqual(checkDefinitionObject(value), [
      'method: must be an HTTP method: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS or another token of letters and hyphens',
      'url: {{town}} names no parameter of the function definition: add "town" to parameters.properties, or fix the name',
      'headers.Authorization: {{api_key}} needs an API Key: set "api_key" (a literal, ${env:NAME} or ${secret:NAME})',
    ]);
  });

  it('refuses what is not an object', () => {
    assert.deepEqual(checkDefinitionObject([1]), ['document: must be an object, not an array']);
    assert.deepEqual(checkDefinitionObject(null), ['document: must be an object, not null']);
  });
});

describe('request definition: placeholderAt', () => {
  const at = (text: string, marker = '|'): ReturnType<typeof placeholderAt> =>
    placeholderAt(text.replace(marker, ''), text.indexOf(marker));

  it('finds {{ and a partial name in the URL', () => {
    assert.deepEqual(at('{"url": "https://x/{{|"}'), { inPlaceholder: true, prefix: '' });
    assert.deepEqual(at('{"url": "https://x/{{ci|"}'), { inPlaceholder: true, prefix: 'ci' });
    assert.deepEqual(at('{"url": "https://x/{{ ci|}}"}'), { inPlaceholder: true, prefix: 'ci' });
    assert.deepEqual(at('{"url": "https://x/{{ci|'), { inPlaceholder: true, prefix: 'ci' });
  });

  it('finds it in a header value, not in a header name', () => {
    assert.deepEqual(at('{"headers": {"Authorization": "Bearer {{|"}}'), { inPlaceholder: true, prefix: '' });
    assert.deepEqual(at('{"headers": {"X-{{|": ""}}').inPlaceholder, false);
  });

  it('is false elsewhere', () => {
    const outside = { inPlaceholder: false, prefix: '' };
    assert.deepEqual(at('{"url": "https://x/{{city}}|"}'), outside);
    assert.deepEqual(at('{"url": "https://x/{|"}'), outside);
    assert.deepEqual(at('{"say_before": "{{|"}'), outside);
    assert.deepEqual(at('{"url": "{{"|}'), outside);
    assert.deepEqual(at('{"fixed_parameters": {"url": "{{|"}}'), outside);
    assert.deepEqual(at('{"url": "a\\"{{"|, "b": 1}'), outside);
  });
});

describe('request definition: parameterNames', () => {
  it('lists the properties of a definition object, and nothing for partial ones', () => {
    assert.deepEqual(parameterNames(JSON.parse(doc())), ['city']);
    assert.deepEqual(parameterNames({ function_definition: { parameters: {} } }), []);
    assert.deepEqual(parameterNames({ function_definition: 5 }), []);
    assert.deepEqual(parameterNames(undefined), []);
  });

  it('reads the text of a document being typed', () => {
    const text =
      '{ "url": "https://x/{{", // typing\n "function_definition": { "parameters": { "properties": { "city": {}, "days": { "type": ';
    assert.deepEqual(parameterNames(text), ['city', 'days']);
    assert.deepEqual(parameterNames('{ "url": "x" '), []);
    assert.deepEqual(parameterNames(''), []);
  });
});
