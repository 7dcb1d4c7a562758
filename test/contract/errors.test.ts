import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { raw, rejection } from './fixtures';
import { startContract, type ContractContext } from './setup';

const TENANT = 1;

describe('contract: error statuses (section 7)', () => {
  let ctx: ContractContext;
  before(async () => {
    ctx = await startContract();
  });
  after(async () => ctx.close());

  const api = (path: string): string => `${ctx.service.url}/api/v1${path}`;

  it('400 for malformed JSON', async () => {
    const response = await raw(
      api(`/ai_functions?tenant_id=${TENANT}`),
      'POST',
      ctx.service.adminToken,
      '{"ai_function": {',
    );
    assert.equal(response.status, 400);
  });

  it('400 naming the wrapper key when it is missing', async () => {
    const response = await raw(
      api(`/ai_functions?tenant_id=${TENANT}`),
      'POST',
      ctx.service.adminToken,
      '{"name":"x"}',
    );
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(response.json), /ai_function/);
  });

  it('400 when a required tenant_id is missing', async () => {
    const response = await raw(api('/integrations'), 'GET', ctx.service.adminToken);
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(response.json), /tenant_id/);
  });

  it('401 for an unknown token, and for none', async () => {
    const stranger = ctx.clientWith('not-a-token');
    const error = await rejection(stranger.list(kindById('function'), TENANT));
    assert.equal(error.status, 401);
    const response = await raw(api(`/ai_functions?tenant_id=${TENANT}`), 'GET', '');
    assert.equal(response.status, 401);
  });

  it('403 for a tenant token on the tenants endpoints', async () => {
    const acme = ctx.service.tenantTokens.find((t) => t.id === TENANT);
    assert.ok(acme);
    const tenantClient: ServiceClient = ctx.clientWith(acme.token);
    assert.equal((await rejection(tenantClient.list(kindById('tenant')))).status, 403);
    assert.equal((await rejection(tenantClient.get(kindById('tenant'), TENANT))).status, 403);
    assert.ok((await tenantClient.list(kindById('prompt'), TENANT)).length > 0, 'its own resources stay visible');
  });

  it('404 for an unknown id, with the service message', async () => {
    const error = await rejection(ctx.admin.get(kindById('intent'), 987_654, TENANT));
    assert.equal(error.status, 404);
    assert.ok(error.serviceMessage);
  });

  it('422 naming each missing or mistyped field', async () => {
    const missing = await rejection(ctx.admin.create(kindById('integration'), { name: 'No system' }, TENANT));
    assert.equal(missing.status, 422);
    assert.ok(missing.fieldErrors?.system, 'system is named');
    assert.ok(missing.fieldErrors?.technical_id, 'technical_id is named');
    const mistyped = await rejection(
      ctx.admin.create(kindById('prompt'), { name: 'Typed', max_tokens: 'many' }, TENANT),
    );
    assert.equal(mistyped.status, 422);
    assert.match(mistyped.message, /max_tokens/);
  });

  it('422 for a value outside an enumeration', async () => {
    const error = await rejection(ctx.admin.create(kindById('action'), { name: 'Odd', action_type: 9 }, TENANT));
    assert.equal(error.status, 422);
    assert.match(error.message, /action_type/);
  });
});
