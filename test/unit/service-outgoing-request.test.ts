import * as assert from 'node:assert/strict';
import { buildRequest, RequestBuildError, type RequestDefinition } from '../../src/core/request-builder';
import type { JsonObject } from '../../src/core/json';
import { outgoingRequest, OutgoingRequestError, type StoredRequest } from '../service/outgoing-request';

/*
 * The extension builds a request definition's request for Send Request
 * (src/core/request-builder.ts); the local service builds it for call_api
 * (test/service/outgoing-request.ts). Each is written on its own from the
 * spec's rules, so here every rule and every choice is put to both and they
 * must send the same request, or both refuse it.
 */

interface Case {
  name: string;
  request: Partial<StoredRequest>;
  params: JsonObject;
}

const BASE: StoredRequest = {
  url: 'https://api.example.com/weather/{{city}}',
  method: 'GET',
  api_key: 'k-123',
  headers: { Authorization: 'Bearer {{api_key}}' },
  fixed_parameters: {},
};

const CASES: Case[] = [
  {
    name: 'rule 1: URL placeholders, repeated and spaced',
    request: { url: 'https://x/{{a}}/x{{b}}y/{{a}}?v={{ b }}' },
    params: { a: 'one', b: 'two' },
  },
  {
    name: 'values written as text, numbers, booleans and JSON',
    request: { url: 'https://x/{{n}}/{{f}}/{{o}}/{{l}}' },
    params: { n: 7.5, f: false, o: { a: 1 }, l: [1, 2] },
  },
  { name: 'URL values percent-encoded', request: {}, params: { city: 'São Paulo/SP a?b&c#d=e 東京 😀 100%' } },
  { name: 'a lone surrogate in the URL is refused', request: {}, params: { city: '\ud800' } },
  { name: 'a missing URL parameter is refused', request: {}, params: {} },
  { name: 'a null URL parameter is refused', request: {}, params: { city: null } },
  {
    name: 'a placeholder only a fixed parameter names is refused',
    request: { fixed_parameters: { city: 'Oslo' } },
    params: {},
  },
  {
    name: '{{api_key}} in the URL is the argument of that name',
    request: { url: 'https://x/{{api_key}}' },
    params: { api_key: 'arg' },
  },
  {
    name: 'rule 2: headers take the API Key and arguments, not encoded',
    request: { headers: { Authorization: 'Bearer {{api_key}}', 'X-City': '{{city}} / {{ unit }}' } },
    params: { city: 'São Paulo', unit: 'C' },
  },
  {
    name: 'a header needing an API Key that is not set is refused',
    request: { api_key: undefined },
    params: { city: 'Oslo' },
  },
  { name: 'a header needing an API Key that is empty is refused', request: { api_key: '' }, params: { city: 'Oslo' } },
  { name: 'a header name with a space is refused', request: { headers: { 'X City': 'a' } }, params: { city: 'Oslo' } },
  {
    name: 'a header value with a line break is refused',
    request: { headers: { 'X-City': '{{city}}' } },
    params: { city: 'Oslo\r\nX-Evil: 1' },
  },
  {
    name: 'rule 3: the body is the fixed parameters and the leftovers, nested kept',
    request: { method: 'POST', fixed_parameters: { units: 'metric', nested: { a: [1, { b: 2 }] } } },
    params: { city: 'Oslo', days: 3, filter: { rain: true } },
  },
  {
    name: 'the fixed parameter wins a shared name',
    request: { method: 'POST', url: 'https://x', fixed_parameters: { units: 'metric' } },
    params: { units: 'imperial' },
  },
  { name: 'a POST with nothing to send sends {}', request: { method: 'POST', url: 'https://x' }, params: {} },
  {
    name: 'a Content-Type header of the definition is kept',
    request: { method: 'PUT', url: 'https://x', headers: { 'content-type': 'application/vnd.api+json' } },
    params: { a: 1 },
  },
  {
    name: 'rule 6: a GET whose arguments all filled placeholders sends no body',
    request: { fixed_parameters: { units: 'metric' } },
    params: { city: 'Oslo' },
  },
  {
    name: 'a GET with leftovers sends them and the fixed parameters in the query',
    request: { url: 'https://x/{{city}}?lang=en#top', fixed_parameters: { units: 'metric' } },
    params: { city: 'Oslo', days: 3, q: 'a b&c' },
  },
  {
    name: 'a HEAD with leftovers after a query ending in &',
    request: { method: 'HEAD', url: 'https://x/?a=1&' },
    params: { b: 2 },
  },
  { name: 'a method is trimmed and uppercased', request: { method: ' patch ', url: 'https://x' }, params: {} },
  { name: 'a method beyond the four named is accepted', request: { method: 'PROPFIND', url: 'https://x' }, params: {} },
  { name: 'a method that is no token is refused', request: { method: 'GET /x', url: 'https://x' }, params: {} },
];

type Built =
  | { refused: true }
  | { refused: false; method: string; url: string; headers: Record<string, string>; body?: unknown };

function byExtension(request: StoredRequest, params: JsonObject): Built {
  const definition: RequestDefinition = {
    ...request,
    function_definition: {
      type: 'function',
      name: 'f',
      description: 'd',
      parameters: { type: 'object', properties: {} },
    },
  };
  try {
    return { refused: false, ...buildRequest(definition, params, request.api_key) };
  } catch (error) {
    if (error instanceof RequestBuildError) return { refused: true };
    throw error;
  }
}

function byService(request: StoredRequest, params: JsonObject): Built {
  try {
    return { refused: false, ...outgoingRequest(request, params) };
  } catch (error) {
    if (error instanceof OutgoingRequestError) return { refused: true };
    throw error;
  }
}

describe("the local service's call_api request agrees with src/core/request-builder.ts", () => {
  for (const { name, request, params } of CASES) {
    it(name, () => {
      const stored: StoredRequest = { ...BASE, ...request };
      const extension = byExtension(stored, params);
      assert.deepEqual(byService(stored, params), extension);
      // A table that only held refusals would agree without showing anything.
      if (!/refused/.test(name)) assert.equal(extension.refused, false);
      else assert.equal(extension.refused, true);
    });
  }
});
