import * as assert from 'node:assert/strict';
import { timeoutError } from '../../src/core/errors';
import { httpError } from '../../src/core/http-errors';
import { networkError } from '../../src/core/network-errors';
import { extractServiceMessage } from '../../src/core/service-message';

const info = { method: 'PUT', path: '/api/v1/ai_prompts/3?tenant_id=1' };

describe('service error messages', () => {
  const cases: ReadonlyArray<[string, string, string | undefined]> = [
    ['plain text', 'prompt is locked', 'prompt is locked'],
    ['JSON string', '"prompt is locked"', 'prompt is locked'],
    ['{error}', '{"error":"Couldn\'t find AiPrompt"}', "Couldn't find AiPrompt"],
    ['{error: {message}}', '{"error":{"message":"quota exceeded"}}', 'quota exceeded'],
    ['{message}', '{"message":"Invalid token"}', 'Invalid token'],
    [
      '{errors: {field: [..]}}',
      '{"errors":{"name":["can\'t be blank"],"mode":["is not included in the list","must be an integer"]}}',
      "name: can't be blank; mode: is not included in the list, must be an integer",
    ],
    [
      '{errors: [..]} of strings',
      '{"errors":["name is missing","voice is unknown"]}',
      'name is missing; voice is unknown',
    ],
    ['{errors: [..]} of objects', '{"errors":[{"message":"bad voice"}]}', 'bad voice'],
    ['empty body', '', undefined],
    ['HTML page', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>', undefined],
    ['empty object', '{}', undefined],
  ];
  for (const [name, body, expected] of cases) {
    it(`extracts the reason from ${name}`, () => {
      assert.equal(extractServiceMessage(body).message, expected);
    });
  }

  it('keeps field errors by field', () => {
    const { fieldErrors } = extractServiceMessage('{"errors":{"name":["can\'t be blank"]}}');
    assert.deepEqual(fieldErrors, { name: ["can't be blank"] });
  });

  it('treats a text/html body as no message', () => {
    assert.equal(extractServiceMessage('Service down', 'text/html; charset=utf-8').message, undefined);
  });

  it('builds a message with method, path, status and the service reason', () => {
    const error = httpError(info, 422, '{"errors":{"name":["can\'t be blank"]}}', 'application/json');
    assert.equal(error.status, 422);
    assert.equal(error.kind, 'http');
    assert.match(
      error.message,
      /^PUT \/api\/v1\/ai_prompts\/3\?tenant_id=1 failed with 422 Unprocessable Entity: name: can't be blank$/,
    );
  });

  it('falls back to the status text for an HTML error page', () => {
    const error = httpError(info, 502, '<html><body>Bad gateway</body></html>', 'text/html');
    assert.match(
      error.message,
      /502 Bad Gateway: Bad Gateway\. A gateway or proxy in front of the service got no usable answer from it; try again later, or ask the service's administrator if it lasts\.$/,
    );
    assert.equal(error.remedy, 'retryLater');
  });

  it('clips very long service messages', () => {
    const error = httpError(info, 500, 'x'.repeat(5000));
    assert.ok(error.message.length < 700);
  });

  it('names the cause of network failures found along the cause chain', () => {
    const refused = networkError(
      info,
      new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
    );
    assert.equal(refused.kind, 'network');
    assert.match(refused.message, /connection was refused/);
    const odd = networkError(info, Object.assign(new Error('weird'), { code: 'EWEIRD' }));
    assert.match(odd.message, /weird \(EWEIRD\)/);
    const inherited = networkError(info, { code: 'toString' });
    assert.match(
      inherited.message,
      /\(toString\); check the network/,
      "a code named like an object's own method is just a code",
    );
  });

  it('says how long a timed-out request waited', () => {
    assert.match(timeoutError(info, 30_000).message, /within 30 s/);
  });
});
