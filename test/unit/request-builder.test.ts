import * as assert from 'node:assert/strict';
import {
  buildRequest,
  placeholderNames,
  RequestBuildError,
  type RequestDefinition,
  scanPlaceholders,
} from '../../src/core/request-builder';
import { checkDefinitionObject } from '../../src/core/request-definition';

function definition(overrides: Partial<RequestDefinition> = {}): RequestDefinition {
  return {
    name: 'Weather',
    url: 'https://api.example.com/weather/{{city}}',
    method: 'GET',
    api_key: 'k-123',
    headers: { Authorization: 'Bearer {{api_key}}' },
    function_definition: {
      type: 'function',
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'The city' } },
        required: ['city'],
      },
    },
    ...overrides,
  };
}

const post = (overrides: Partial<RequestDefinition> = {}): RequestDefinition =>
  definition({ method: 'POST', ...overrides });

function buildError(build: () => unknown, message: RegExp): void {
  assert.throws(build, (error: unknown) => error instanceof RequestBuildError && message.test(error.message));
}

/** A copy of the definition as a plain value, changed by `change`, for the checker. */
function changed(change: (value: Record<string, unknown>) => void): Record<string, unknown> {
  const value = structuredClone(definition()) as unknown as Record<string, unknown>;
  change(value);
  return value;
}

function functionDefinitionOf(value: Record<string, unknown>): Record<string, unknown> {
  return value.function_definition as Record<string, unknown>;
}

describe('request builder, rule 1: URL placeholders take the dynamic parameter of the same name', () => {
  it('fills several placeholders, a repeated one, and one next to text', () => {
    const built = buildRequest(
      definition({ url: 'https://api.example.com/{{a}}/x{{b}}y/{{a}}?v={{ b }}' }),
      { a: 'one', b: 'two' },
      'k',
    );
    assert.equal(built.url, 'https://api.example.com/one/xtwoy/one?v=two');
  });

  it('writes numbers and booleans as they read, objects and arrays as JSON', () => {
    const built = buildRequest(
      definition({ url: 'https://x/{{n}}/{{f}}/{{t}}/{{o}}/{{l}}' }),
      { n: 7.5, f: false, t: true, o: { a: 1 }, l: [1, 2] },
      'k',
    );
    assert.equal(built.url, `https://x/7.5/false/true/${encodeURIComponent('{"a":1}')}/${encodeURIComponent('[1,2]')}`);
  });

  it('percent-encodes spaces, slashes, unicode and ?&#=', () => {
    const url = (city: string): string => buildRequest(definition(), { city }, 'k').url;
    assert.equal(url('São Paulo/SP'), 'https://api.example.com/weather/S%C3%A3o%20Paulo%2FSP');
    assert.equal(url('a?b&c#d=e'), 'https://api.example.com/weather/a%3Fb%26c%23d%3De');
    assert.equal(url('東京 😀'), 'https://api.example.com/weather/%E6%9D%B1%E4%BA%AC%20%F0%9F%98%80');
    assert.equal(url('100%'), 'https://api.example.com/weather/100%25');
  });

  it('refuses a value that is not valid Unicode text', () => {
    buildError(
      () => buildRequest(definition(), { city: '\ud800' }, 'k'),
      /\{\{city\}\}: the value is not valid Unicode text/,
    );
  });

  it('counts a filled parameter as used: it goes nowhere else', () => {
    const built = buildRequest(post(), { city: 'Oslo' }, 'k');
    assert.deepEqual(built.body, {});
  });
});

describe('request builder, rule 2: in headers {{api_key}} is the API Key, other placeholders dynamic parameters', () => {
  it('fills {{api_key}} in several headers and other placeholders from arguments, unencoded', () => {
    const built = buildRequest(
      post({
        headers: { Authorization: 'Bearer {{api_key}}', 'X-Key': '{{ api_key }}', 'X-City': 'in {{city}}/{{city}}' },
      }),
      { city: 'São Paulo' },
      'k-123',
    );
    assert.deepEqual(built.headers, {
      Authorization: 'Bearer k-123',
      'X-Key': 'k-123',
      'X-City': 'in São Paulo/São Paulo',
      'Content-Type': 'application/json',
    });
  });

  it('does not put the API Key into the URL: {{api_key}} there is the argument named api_key', () => {
    const url = 'https://x/{{city}}?key={{api_key}}';
    buildError(
      () => buildRequest(definition({ url }), { city: 'Oslo' }, 'k-123'),
      /URL placeholder \{\{api_key\}\} has no value: pass an argument named "api_key"/,
    );
    assert.equal(
      buildRequest(definition({ url }), { city: 'Oslo', api_key: 'from-ai' }, 'k-123').url,
      'https://x/Oslo?key=from-ai',
    );
  });

  it('uses the API Key in headers even when an argument is named api_key, which then goes to the body', () => {
    const built = buildRequest(
      post({ url: 'https://x', headers: { Authorization: '{{api_key}}' } }),
      { api_key: 'from-ai' },
      'k-123',
    );
    assert.equal(built.headers.Authorization, 'k-123');
    assert.deepEqual(built.body, { api_key: 'from-ai' });
  });

  it('refuses {{api_key}} in a header without an API Key, naming the fix', () => {
    for (const apiKey of [undefined, '']) {
      buildError(
        () => buildRequest(definition(), { city: 'Oslo' }, apiKey),
        /Header "Authorization" placeholder \{\{api_key\}\} has no value: set the definition's "api_key"/,
      );
    }
  });

  it('counts an argument used in a header as used, like one in the URL', () => {
    const built = buildRequest(
      post({ url: 'https://x', headers: { 'X-City': '{{city}}' } }),
      { city: 'Oslo', days: 3 },
      'k',
    );
    assert.deepEqual(built.body, { days: 3 });
  });
});

describe('request builder, rule 3: the body is the fixed parameters plus every unmatched dynamic parameter', () => {
  it('combines them, nested objects and arrays kept as they are', () => {
    const built = buildRequest(
      post({
        url: 'https://api.example.com/orders/{{order_id}}',
        fixed_parameters: { source: 'bot', meta: { v: 1, tags: ['a'] } },
      }),
      { order_id: 7, note: { text: 'hi', lines: [{ n: 1 }] }, count: 2, ok: false, none: null },
      'k',
    );
    assert.equal(built.url, 'https://api.example.com/orders/7');
    assert.deepEqual(built.body, {
      note: { text: 'hi', lines: [{ n: 1 }] },
      count: 2,
      ok: false,
      none: null,
      source: 'bot',
      meta: { v: 1, tags: ['a'] },
    });
  });

  it('sends the fixed parameters alone when every argument fills a placeholder, and {} when there is nothing', () => {
    assert.deepEqual(buildRequest(post({ fixed_parameters: { a: 1 } }), { city: 'Oslo' }, 'k').body, { a: 1 });
    assert.deepEqual(buildRequest(post({ url: 'https://x' }), {}, 'k').body, {});
  });

  it('lets a fixed parameter win over an unmatched dynamic one of the same name', () => {
    assert.deepEqual(
      buildRequest(post({ url: 'https://x', fixed_parameters: { lang: 'en' } }), { lang: 'de' }, 'k').body,
      { lang: 'en' },
    );
  });

  it('adds Content-Type: application/json unless a header sets it, in any case', () => {
    assert.equal(buildRequest(post(), { city: 'Oslo' }, 'k').headers['Content-Type'], 'application/json');
    const own = buildRequest(post({ headers: { 'content-type': 'application/vnd.api+json' } }), { city: 'Oslo' }, 'k');
    assert.deepEqual(own.headers, { 'content-type': 'application/vnd.api+json' });
  });

  it('keeps a `__proto__` argument as a body field', () => {
    const args = JSON.parse('{"city": "Oslo", "__proto__": {"x": 1}}') as Record<string, unknown>;
    const body = buildRequest(post(), args, 'k').body as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['__proto__']);
    assert.equal(JSON.stringify(body), '{"__proto__":{"x":1}}');
  });
});

describe('request builder, rule 4: fixed parameters never fill placeholders', () => {
  it('refuses a URL placeholder that only a fixed parameter of that name could fill', () => {
    buildError(
      () => buildRequest(definition({ fixed_parameters: { city: 'Rome' } }), {}, 'k'),
      /URL placeholder \{\{city\}\} has no value/,
    );
  });

  it('refuses a header placeholder that only a fixed parameter could fill', () => {
    const headers = { 'X-Lang': '{{lang}}' };
    buildError(
      () => buildRequest(post({ url: 'https://x', headers, fixed_parameters: { lang: 'en' } }), {}, 'k'),
      /Header "X-Lang" placeholder \{\{lang\}\} has no value/,
    );
  });

  it('fills from the argument and still sends the fixed parameter of the same name in the body', () => {
    const built = buildRequest(post({ fixed_parameters: { city: 'Rome' } }), { city: 'Oslo' }, 'k');
    assert.equal(built.url, 'https://api.example.com/weather/Oslo');
    assert.deepEqual(built.body, { city: 'Rome' });
  });
});

describe('request builder, rule 5: a function definition with properties, even empty, is required', () => {
  const withParameters = (parameters: unknown): Record<string, unknown> =>
    changed((value) => {
      functionDefinitionOf(value).parameters = parameters;
    });

  it('accepts an empty properties object', () => {
    assert.deepEqual(
      checkDefinitionObject(
        changed((value) => {
          value.url = 'https://x/status';
          functionDefinitionOf(value).parameters = { type: 'object', properties: {} };
        }),
      ),
      [],
    );
  });

  it('refuses parameters without properties, a definition without parameters, and none at all', () => {
    assert.deepEqual(checkDefinitionObject(withParameters({ type: 'object' })), [
      'function_definition.parameters.properties: required (rule 5: give an empty object {} when the request takes no parameters)',
    ]);
    assert.match(
      checkDefinitionObject(withParameters(undefined)).join('\n'),
      /^function_definition\.parameters: required \(rule 5/,
    );
    const none = changed((value) => delete value.function_definition);
    assert.deepEqual(checkDefinitionObject(none), [
      'function_definition: required (rule 5: a function definition is required even when the request takes no parameters)',
    ]);
  });

  it('builds a request without parameters', () => {
    const noParameters = post({
      url: 'https://x/ping',
      function_definition: { ...definition().function_definition, parameters: { type: 'object', properties: {} } },
    });
    assert.deepEqual(buildRequest(noParameters, {}, 'k'), {
      method: 'POST',
      url: 'https://x/ping',
      headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
      body: {},
    });
  });
});

describe('request builder, rule 6: a GET without dynamic parameters sends the URL and headers only', () => {
  it('sends no body and no query, even with fixed parameters', () => {
    const built = buildRequest(
      definition({ url: 'https://api.example.com/status', fixed_parameters: { a: 1 } }),
      {},
      'k',
    );
    assert.deepEqual(built, {
      method: 'GET',
      url: 'https://api.example.com/status',
      headers: { Authorization: 'Bearer k' },
    });
  });

  it('does the same when every dynamic parameter fills a placeholder', () => {
    const built = buildRequest(definition({ fixed_parameters: { units: 'metric' } }), { city: 'Oslo' }, 'k');
    assert.deepEqual(built, {
      method: 'GET',
      url: 'https://api.example.com/weather/Oslo',
      headers: { Authorization: 'Bearer k' },
    });
  });

  it('treats HEAD like GET', () => {
    const built = buildRequest(definition({ method: 'HEAD', fixed_parameters: { a: 1 } }), { city: 'Oslo' }, 'k');
    assert.deepEqual(built, {
      method: 'HEAD',
      url: 'https://api.example.com/weather/Oslo',
      headers: { Authorization: 'Bearer k' },
    });
  });
});

describe('request builder, rule 7: the function name and description are required to guide the AI', () => {
  for (const field of ['name', 'description']) {
    it(`refuses a function definition without a ${field}, or an empty one`, () => {
      const missing = changed((value) => delete functionDefinitionOf(value)[field]);
      assert.deepEqual(checkDefinitionObject(missing), [
        `function_definition.${field}: required (rule 7: the name and description guide the AI in deciding when to call the function)`,
      ]);
      const empty = changed((value) => {
        functionDefinitionOf(value)[field] = '';
      });
      assert.match(
        checkDefinitionObject(empty).join('\n'),
        new RegExp(`^function_definition\\.${field}: must .+ \\(rule 7`),
      );
    });
  }

  it('refuses a function name the AI cannot call', () => {
    const spaced = changed((value) => {
      functionDefinitionOf(value).name = 'get weather';
    });
    assert.match(
      checkDefinitionObject(spaced).join('\n'),
      /^function_definition\.name: must be 1 to 64 letters, digits, underscores or hyphens/,
    );
  });
});

describe('request builder: choices where section 2.9 is silent', () => {
  it('puts the unmatched parameters of a GET into the query string, with the fixed ones', () => {
    const built = buildRequest(
      definition({
        url: 'https://api.example.com/search?lang=en',
        fixed_parameters: { units: 'metric', lang2: { a: 1 } },
      }),
      { q: 'a&b c', limit: 5 },
      'k',
    );
    assert.equal(
      built.url,
      `https://api.example.com/search?lang=en&q=a%26b%20c&limit=5&units=metric&lang2=${encodeURIComponent('{"a":1}')}`,
    );
    assert.equal(built.body, undefined);
    assert.equal(built.headers['Content-Type'], undefined);
  });

  it('starts the query string with ? or continues after ? or &, and keeps a fragment last', () => {
    const url = (base: string): string => buildRequest(definition({ url: base }), { q: 'x' }, 'k').url;
    assert.equal(url('https://x/s'), 'https://x/s?q=x');
    assert.equal(url('https://x/s?'), 'https://x/s?q=x');
    assert.equal(url('https://x/s?a=1&'), 'https://x/s?a=1&q=x');
    assert.equal(url('https://x/s#top'), 'https://x/s?q=x#top');
  });

  it('refuses a placeholder with no value, naming it; null counts as no value', () => {
    buildError(
      () => buildRequest(definition(), {}, 'k'),
      /^URL placeholder \{\{city\}\} has no value: pass an argument named "city"\.$/,
    );
    buildError(() => buildRequest(definition(), { city: null }, 'k'), /\{\{city\}\} has no value/);
    buildError(() => buildRequest(definition(), { City: 'Oslo' }, 'k'), /\{\{city\}\} has no value/);
  });

  it('ignores inherited names: only own arguments fill placeholders', () => {
    buildError(
      () => buildRequest(definition({ url: 'https://x/{{toString}}' }), {}, 'k'),
      /\{\{toString\}\} has no value/,
    );
  });

  it('accepts PATCH, HEAD, OPTIONS and other method tokens, uppercased and trimmed', () => {
    assert.equal(buildRequest(post({ method: 'PATCH' }), { city: 'a' }, 'k').method, 'PATCH');
    assert.equal(buildRequest(post({ method: 'OPTIONS' }), { city: 'a' }, 'k').method, 'OPTIONS');
    const custom = buildRequest(post({ method: ' purge ' }), { city: 'a' }, 'k');
    assert.equal(custom.method, 'PURGE');
    assert.deepEqual(custom.body, {});
    assert.equal(buildRequest(post({ method: 'version-control' }), { city: 'a' }, 'k').method, 'VERSION-CONTROL');
    assert.equal(buildRequest(definition({ method: 'get' }), { city: 'a' }, 'k').body, undefined);
  });

  it('refuses a method that is not a token', () => {
    for (const method of ['', 'GE T', 'GET\r\nX: 1', 'P0ST', '-GET']) {
      buildError(() => buildRequest(definition({ method }), { city: 'a' }, 'k'), /is not an HTTP method/);
    }
  });

  it('refuses header values that would break the header line', () => {
    buildError(
      () => buildRequest(post({ headers: { 'X-City': '{{city}}' } }), { city: 'a\r\nX-Evil: 1' }),
      /line break/,
    );
    buildError(() => buildRequest(post({ headers: { 'X-City': 'a\nb' } }), { city: 'a' }), /line break/);
  });

  it('refuses a header name that is not a token', () => {
    buildError(
      () => buildRequest(post({ headers: { 'X City': 'a' } }), { city: 'a' }),
      /Header name "X City" is not valid/,
    );
    buildError(() => buildRequest(post({ headers: { 'X:A': 'a' } }), { city: 'a' }), /Header name "X:A" is not valid/);
  });

  it('leaves malformed placeholders as they are written', () => {
    const built = buildRequest(
      definition({ url: 'https://x/{{}}/{{first name}}/{{{city}}}/{{open' }),
      { city: 'Oslo' },
      'k',
    );
    assert.equal(built.url, 'https://x/{{}}/{{first name}}/{Oslo}/{{open');
  });
});

describe('request builder: reading placeholders', () => {
  it('lists the names the builder fills', () => {
    assert.deepEqual(placeholderNames('{{a}}/{{ b.c-d }}/{{a}}/{{1x}}/{{e f}}'), ['a', 'b.c-d', 'a']);
  });

  it('scans valid and malformed placeholders with their spans', () => {
    const text = 'a{{ x }}b{{}}c{{ }}{{first name}}{{{y}}}{{open {{z}}{{tail';
    const spans = scanPlaceholders(text).map((t) => [text.slice(t.start, t.end), t.name, t.fault ?? 'ok']);
    assert.deepEqual(spans, [
      ['{{ x }}', 'x', 'ok'],
      ['{{}}', '', 'empty'],
      ['{{ }}', '', 'empty'],
      ['{{first name}}', 'first name', 'name'],
      ['{{y}}', 'y', 'ok'],
      ['{{open', 'open', 'unclosed'],
      ['{{z}}', 'z', 'ok'],
      ['{{tail', 'tail', 'unclosed'],
    ]);
  });

  it('agrees with the builder on which placeholders it fills', () => {
    const text = '{{{a}}}{{a b}}{{b}}{{ {{c}}';
    const valid = scanPlaceholders(text)
      .filter((t) => !t.fault)
      .map((t) => t.name);
    assert.deepEqual(valid, placeholderNames(text));
  });
});
