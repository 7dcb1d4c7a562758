import * as assert from 'node:assert/strict';
import { filesDifference, requestLine, requestsDifference } from '../bench/folder-checks';

describe('bench tenant-folder checks', () => {
  const files = new Map([
    ['tenant.json', '{}\n'],
    ['ai_prompts/a.json', '{ "id": 1 }\n'],
    ['ai_prompts/a.system.md', 'Be brief.'],
  ]);

  it('finds no difference between the same files, whatever their order', () => {
    assert.equal(filesDifference(files, new Map([...files].reverse())), undefined);
  });

  it('names missing, extra and changed files, so a failed run says why', () => {
    const actual = new Map(files);
    actual.delete('tenant.json');
    actual.set('ai_prompts/b.json', '{}\n');
    actual.set('ai_prompts/a.system.md', 'Be long.');
    assert.equal(
      filesDifference(files, actual),
      'files 1 missing (tenant.json…), 1 extra (ai_prompts/b.json…), 1 changed (ai_prompts/a.system.md…)',
    );
  });

  it('writes a request with its query sorted, so the order of its parameters does not matter', () => {
    assert.equal(
      requestLine({ method: 'GET', path: '/api/v1/ai_prompts/7', query: { tenant_id: '3', a: 'x y' } }),
      'GET /api/v1/ai_prompts/7?a=x+y&tenant_id=3',
    );
    assert.equal(requestLine({ method: 'GET', path: '/api/v1/tenants/3' }), 'GET /api/v1/tenants/3');
  });

  it('compares requests as multisets: the order apart, every repeat counts', () => {
    const tenant = { method: 'GET', path: '/api/v1/tenants/3', query: {} };
    const list = { method: 'GET', path: '/api/v1/ai_prompts', query: { tenant_id: '3' } };
    assert.equal(requestsDifference([tenant, list], [list, tenant]), undefined);
    assert.equal(
      requestsDifference([tenant, list, tenant], [list, tenant, list]),
      'only the candidate sent GET /api/v1/tenants/3; only the floor sent GET /api/v1/ai_prompts?tenant_id=3 (3 vs 3 requests)',
    );
    assert.equal(
      requestsDifference([tenant, tenant, tenant], [tenant]),
      'only the candidate sent GET /api/v1/tenants/3 ×2 (3 vs 1 requests)',
    );
  });
});
