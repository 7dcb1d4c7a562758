import * as assert from 'node:assert/strict';
import { buildRequest, RequestBuildError, type RequestDefinition } from '../../src/core/request-builder';

function definition(overrides: Partial<RequestDefinition> = {}): RequestDefinition {
  return {
    name: 'Weather',
    url: 'https://api.example.com/weather/{{city}}',
    method: 'GET',
    api_key: 'k-123',
    headers: { Authorization: 'Bearer {{api_key}}' },
    function_definition: {
      type: 'function', name: 'get_weather', description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
    ...overrides,
  };
}

describe('request builder (section 2.9)', () => {
  it('fills URL placeholders from dynamic parameters, percent-encoded (rule 1)', () => {
    const built = buildRequest(definition(), { city: 'São Paulo/SP' }, 'k-123');
    assert.equal(built.url, 'https://api.example.com/weather/S%C3%A3o%20Paulo%2FSP');
  });

  it('fills {{api_key}} in headers with the API Key and others from parameters (rule 2)', () => {
    const built = buildRequest(
      definition({ method: 'POST', headers: { Authorization: 'Bearer {{api_key}}', 'X-City': '{{city}}' } }),
      { city: 'Oslo' },
      'k-123',
    );
    assert.equal(built.headers.Authorization, 'Bearer k-123');
    assert.equal(built.headers['X-City'], 'Oslo');
  });

  it('sends fixed parameters plus unmatched dynamic ones as the body, nested kept (rules 3, 4)', () => {
    const built = buildRequest(
      definition({ method: 'POST', url: 'https://api.example.com/orders/{{order_id}}', fixed_parameters: { source: 'bot', meta: { v: 1 } } }),
      { order_id: 7, note: { text: 'hi' } },
      'k',
    );
    assert.equal(built.url, 'https://api.example.com/orders/7');
    assert.deepEqual(built.body, { note: { text: 'hi' }, source: 'bot', meta: { v: 1 } });
    assert.equal(built.headers['Content-Type'], 'application/json');
  });

  it('never lets fixed parameters fill placeholders (rule 4)', () => {
    assert.throws(
      () => buildRequest(definition({ fixed_parameters: { city: 'Rome' } }), {}, 'k'),
      (error: unknown) => error instanceof RequestBuildError && /\{\{city\}\} has no value/.test(error.message),
    );
  });

  it('sends URL and headers only for a GET without dynamic parameters (rule 6)', () => {
    const built = buildRequest(definition({ url: 'https://api.example.com/status', fixed_parameters: { a: 1 } }), {}, 'k');
    assert.deepEqual(built, { method: 'GET', url: 'https://api.example.com/status', headers: { Authorization: 'Bearer k' } });
  });

  it('puts unmatched parameters of a GET into the query string', () => {
    const built = buildRequest(definition({ url: 'https://api.example.com/search?lang=en' }), { q: 'a&b' }, 'k');
    assert.equal(built.url, 'https://api.example.com/search?lang=en&q=a%26b');
    assert.equal(built.body, undefined);
  });

  it('refuses header values that would break the header line', () => {
    assert.throws(() => buildRequest(definition({ method: 'POST', headers: { 'X-City': '{{city}}' } }), { city: 'a\r\nX-Evil: 1' }), /line break/);
  });
});
