import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { interpretResponse, retryAfterMs, type RawResponse } from '../../src/core/responses';
import { ServiceError } from '../../src/core/errors';
import { networkError } from '../../src/core/network-errors';
import { extractServiceMessage, MAX_MESSAGE } from '../../src/core/service-message';
import { buildRequest, RequestBuildError, type RequestDefinition } from '../../src/core/request-builder';

/**
 * Properties over random input: whatever a service, a proxy or a user's
 * definition sends, the code answers with its own error type, never a
 * TypeError or RangeError from deep inside.
 */
const RUNS = { numRuns: 300 };
const info = { connection: 'local', method: 'GET', path: '/api/v1/ai_prompts?tenant_id=1' };
/** Generous: the request, the status, a clipped reason and the advice. */
const MAX_ERROR_MESSAGE = 1200;

/** Characters that break naive code: lone surrogates, line breaks, braces and URL syntax, plus any code point. */
const trickyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\ud800',
      '\udfff',
      '\r',
      '\n',
      '\0',
      '{{',
      '}}',
      '{{city}}',
      '{{ api_key }}',
      '{{a.b-c}}',
      '?',
      '&',
      '#',
      '%',
      ' ',
      '"',
      '<',
    ),
  },
);
const text = fc.string({ unit: trickyUnit, maxLength: 40 });
const json = fc.jsonValue({ stringUnit: trickyUnit, maxDepth: 4 });

const nested = (open: string, inner: string, close: string) =>
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `${open.repeat(depth)}${inner}${close.repeat(depth)}`);

const body = fc.oneof(
  text,
  json.map((value) => JSON.stringify(value)),
  fc.record({ errors: fc.oneof(fc.dictionary(text, json), fc.array(json)) }).map((value) => JSON.stringify(value)),
  fc
    .record({ error: fc.record({ message: json }), message: json }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
  text.map((inner) => `<!DOCTYPE html><html><body>${inner}</body></html>`),
  nested('{"error":', '"deep"', '}'),
  nested('{"errors":[', '"deep"', ']}'),
  nested('[', '1', ']'),
  fc.string({ unit: trickyUnit, minLength: 1, maxLength: 5 }).map((chunk) => chunk.repeat(20_000)),
);

const response: fc.Arbitrary<RawResponse> = fc.record(
  {
    status: fc.integer({ min: 100, max: 599 }),
    contentType: fc.constantFrom(
      '',
      'application/json',
      'application/problem+json; charset=utf-8',
      'text/html',
      'text/plain',
    ),
    text: body,
    location: text,
    retryAfter: text,
  },
  { requiredKeys: ['status', 'contentType', 'text'] },
);

function onlyServiceErrors(action: () => unknown): void {
  try {
    action();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    assert.ok(error.message.length <= MAX_ERROR_MESSAGE, `message of ${error.message.length} characters`);
    assert.ok(error.message.startsWith('local: GET /api/v1/ai_prompts?tenant_id=1 '), error.message);
  }
}

describe('properties: interpreting any response', () => {
  it('throws nothing but a ServiceError with a bounded message, for any status, type and body', () => {
    fc.assert(
      fc.property(response, (raw) => {
        onlyServiceErrors(() => interpretResponse(info, raw, 'object'));
        onlyServiceErrors(() => interpretResponse(info, raw, 'array'));
      }),
      RUNS,
    );
  });

  it('returns any JSON object of a 2xx as it was sent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 299 }), fc.dictionary(text, json), (status, value) => {
        const sent = JSON.stringify(value);
        assert.deepEqual(
          interpretResponse(info, { status, contentType: 'application/json', text: sent }, 'object'),
          JSON.parse(sent),
        );
      }),
      RUNS,
    );
  });

  it('extracts a service message without throwing, never longer than the limit', () => {
    fc.assert(
      fc.property(body, fc.string(), (raw, contentType) => {
        const { message } = extractServiceMessage(raw, contentType);
        assert.ok(
          message === undefined || message.length <= MAX_MESSAGE + 1,
          `message of ${message?.length} characters`,
        );
      }),
      RUNS,
    );
  });

  it('keeps a field named __proto__ as a field (a counterexample found on the way)', () => {
    const { message, fieldErrors } = extractServiceMessage('{"errors":{"__proto__":["is odd"],"name":["is taken"]}}');
    assert.equal(message, '__proto__: is odd; name: is taken');
    assert.deepEqual(Object.keys(fieldErrors ?? {}), ['__proto__', 'name']);
    assert.equal(Object.getPrototypeOf(fieldErrors), Object.prototype);
  });

  it('names any network failure, however odd the thrown value', () => {
    const cyclic: { code: string; cause?: unknown } = { code: 'ECONNRESET' };
    cyclic.cause = cyclic;
    const thrown = fc.oneof(
      fc.anything({ withNullPrototype: true, withObjectString: true, maxDepth: 3 }),
      fc.record(
        {
          code: text,
          message: fc.anything({ withNullPrototype: true }),
          cause: fc.anything({ withNullPrototype: true }),
        },
        { requiredKeys: [] },
      ),
      fc.constant(cyclic),
      fc.constant(new AggregateError([Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })], '')),
    );
    fc.assert(
      fc.property(thrown, (error) => {
        const failure = networkError(info, error);
        assert.equal(failure.kind, 'network');
        assert.ok(failure.message.length <= MAX_ERROR_MESSAGE);
        assert.ok(!/: fetch failed\.?$/.test(failure.message));
      }),
      RUNS,
    );
  });

  it('reads any Retry-After as a wait of zero or more, or none', () => {
    fc.assert(
      fc.property(fc.option(text, { nil: undefined }), fc.integer({ min: 0, max: 4_102_444_800_000 }), (value, now) => {
        const wait = retryAfterMs(value, now);
        assert.ok(wait === undefined || (Number.isFinite(wait) && wait >= 0), String(wait));
      }),
      RUNS,
    );
  });
});

describe('properties: building any request definition', () => {
  const functionDefinition = {
    type: 'function' as const,
    name: 'f',
    description: 'd',
    parameters: { type: 'object' as const, properties: {} },
  };
  const name = fc.oneof(fc.constantFrom('city', 'api_key', 'a.b-c', 'q', '__proto__'), text);
  const definition: fc.Arbitrary<RequestDefinition> = fc.record(
    {
      name: text,
      url: fc.oneof(
        text,
        text.map((path) => `https://api.example.com/${path}`),
      ),
      method: fc.oneof(fc.constantFrom('GET', 'post', ' get ', 'HEAD', 'PUT', 'DELETE', 'M-SEARCH'), text),
      api_key: text,
      headers: fc.dictionary(fc.oneof(fc.constantFrom('Authorization', 'X-Key', 'Content-Type'), text), text),
      function_definition: fc.constant(functionDefinition),
      fixed_parameters: fc.dictionary(name, json),
      say_before: text,
    },
    { requiredKeys: ['url', 'method', 'function_definition'] },
  );

  it('throws nothing but a RequestBuildError', () => {
    fc.assert(
      fc.property(definition, fc.dictionary(name, json), fc.option(text, { nil: undefined }), (def, args, apiKey) => {
        try {
          const built = buildRequest(def, args, apiKey);
          for (const value of Object.values(built.headers))
            assert.ok(!/[\r\n]/.test(value), 'no line break in a header');
        } catch (error) {
          if (!(error instanceof RequestBuildError)) throw error;
        }
      }),
      RUNS,
    );
  });
});
