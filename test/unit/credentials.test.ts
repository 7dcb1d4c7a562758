import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { CREDENTIAL_MASK, credentialPaths, maskCredentials, restoreCredentials } from '../../src/core/credentials';

const integration = {
  id: 1,
  name: 'LLM',
  tec_params: {
    model: 'gpt-4o',
    api_key: 'sk-live-1',
    nested: { client_secret: 's-2', region: 'eu' },
    request: { url: 'https://x', api_key: 'k-3' },
    tokens_limit: 5,
  },
};

describe('credentials in documents', () => {
  it('finds the credentials of each kind', () => {
    assert.deepEqual(credentialPaths('tenant', { id: 1, auth_token: 't' }), [['auth_token']]);
    assert.deepEqual(credentialPaths('integration', integration), [
      ['tec_params', 'api_key'],
      ['tec_params', 'nested', 'client_secret'],
      ['tec_params', 'request', 'api_key'],
    ]);
    const agent: JsonObject = {
      configuration: {
        prompt: [{ name: 'a' }, { name: 'b', integration: { id: 1, bearer_token: 'b-4', server: 'https://s' } }],
      },
    };
    assert.deepEqual(credentialPaths('agent', agent), [['configuration', 'prompt', 1, 'integration', 'bearer_token']]);
    assert.deepEqual(credentialPaths('prompt', { id: 1, system: 'token' }), []);
  });

  it('masks them, leaving everything else as it was', () => {
    const masked = maskCredentials('integration', integration);
    assert.equal(JSON.stringify(masked).includes('sk-live-1'), false);
    assert.deepEqual(masked.tec_params, {
      model: 'gpt-4o',
      api_key: CREDENTIAL_MASK,
      nested: { client_secret: CREDENTIAL_MASK, region: 'eu' },
      request: { url: 'https://x', api_key: CREDENTIAL_MASK },
      tokens_limit: 5,
    });
    assert.equal(integration.tec_params.api_key, 'sk-live-1', 'the original is untouched');
  });

  it('puts back the masked values the user left alone, and keeps the ones they changed', () => {
    const edited = maskCredentials('integration', integration) as { tec_params: { api_key: string } };
    edited.tec_params.api_key = 'sk-new';
    const restored = restoreCredentials('integration', edited as never, integration) as typeof integration;
    assert.equal(restored.tec_params.api_key, 'sk-new');
    assert.equal(restored.tec_params.nested.client_secret, 's-2');
    assert.equal(restored.tec_params.request.api_key, 'k-3');
  });

  it('does not invent a credential the user removed', () => {
    const restored = restoreCredentials('tenant', { id: 1, name: 'x' }, { id: 1, name: 'x', auth_token: 't' });
    assert.deepEqual(restored, { id: 1, name: 'x' });
  });
});
