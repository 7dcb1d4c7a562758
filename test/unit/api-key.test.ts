import * as assert from 'node:assert/strict';
import { isMalformedReference, MASK, maskSecret, parseApiKey } from '../../src/core/api-key';

describe('api key: parseApiKey', () => {
  it('reads ${env:NAME} and ${secret:NAME}', () => {
    assert.deepEqual(parseApiKey('${env:WEATHER_KEY}'), { kind: 'env', name: 'WEATHER_KEY' });
    assert.deepEqual(parseApiKey('${secret:weather.key-2}'), { kind: 'secret', name: 'weather.key-2' });
    assert.deepEqual(parseApiKey('${env:_x}'), { kind: 'env', name: '_x' });
  });

  it('takes anything else that is a text as the key itself', () => {
    assert.deepEqual(parseApiKey('k-123'), { kind: 'literal', value: 'k-123' });
    assert.deepEqual(parseApiKey('prefix ${env:X}'), { kind: 'literal', value: 'prefix ${env:X}' });
    assert.deepEqual(parseApiKey('${env:1X}'), { kind: 'literal', value: '${env:1X}' });
    assert.deepEqual(parseApiKey('${vault:X}'), { kind: 'literal', value: '${vault:X}' });
  });

  it('counts a missing, empty, blank or non-text key as none', () => {
    for (const value of [undefined, null, '', '   ', 42, {}]) {
      assert.deepEqual(parseApiKey(value), { kind: 'none' }, JSON.stringify(value));
    }
  });

  it('tells a malformed reference from a literal', () => {
    assert.equal(isMalformedReference('${env:}'), true);
    assert.equal(isMalformedReference('${secret:bad name}'), true);
    assert.equal(isMalformedReference(' ${env:X'), true);
    assert.equal(isMalformedReference('${env:X}'), false);
    assert.equal(isMalformedReference('k-123'), false);
    assert.equal(isMalformedReference(undefined), false);
  });
});

describe('api key: maskSecret', () => {
  it('masks every occurrence inside nested strings, and not in keys', () => {
    const built = {
      url: 'https://x/?k=s3cr3t',
      headers: { Authorization: 'Bearer s3cr3t', 'X-Both': 's3cr3t:s3cr3t', s3cr3t: 'name' },
      body: { list: ['s3cr3t', 1, true, null], nested: { deep: 'as3cr3tb' } },
    };
    assert.deepEqual(maskSecret(built, 's3cr3t'), {
      url: `https://x/?k=${MASK}`,
      headers: { Authorization: `Bearer ${MASK}`, 'X-Both': `${MASK}:${MASK}`, s3cr3t: 'name' },
      body: { list: [MASK, 1, true, null], nested: { deep: `a${MASK}b` } },
    });
  });

  it('masks the percent-encoded form too', () => {
    assert.equal(maskSecret('https://x/a%2Fb%20c', 'a/b c'), `https://x/${MASK}`);
  });

  it('copies deeply and leaves the original alone', () => {
    const original = { headers: { Authorization: 'Bearer k' }, list: [{ a: 'k' }] };
    const masked = maskSecret(original, 'k');
    assert.notEqual(masked, original);
    assert.notEqual(masked.list, original.list);
    assert.deepEqual(original, { headers: { Authorization: 'Bearer k' }, list: [{ a: 'k' }] });
    const unmasked = maskSecret(original, undefined);
    assert.deepEqual(unmasked, original);
    assert.notEqual(unmasked.headers, original.headers);
  });

  it('masks nothing for an empty secret, and any one of at least one character', () => {
    assert.equal(maskSecret('Bearer ', ''), 'Bearer ');
    assert.equal(maskSecret('x1y', '1'), `x${MASK}y`);
  });

  it('keeps a `__proto__` key as a key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "k"}}') as Record<string, unknown>;
    const masked = maskSecret(value, 'k');
    assert.deepEqual(Object.keys(masked), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value, { polluted: MASK });
  });
});
