import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { covers, ListingCache, tenantsListing, type ListingKey, type ListingScope } from '../../src/core/listing-cache';

/** A cache over a loader that counts its loads per key and answers what `answer` says at the time. */
function countingCache(
  answer: (key: ListingKey) => Promise<JsonObject[]> = (key) => Promise.resolve([{ id: 1, name: key.segment }]),
) {
  const loads = new Map<string, number>();
  const cache = new ListingCache((key) => {
    const text = JSON.stringify(key);
    loads.set(text, (loads.get(text) ?? 0) + 1);
    return answer(key);
  });
  return { cache, loads: (key: ListingKey): number => loads.get(JSON.stringify(key)) ?? 0 };
}

const tenants = tenantsListing('local');
const prompts: ListingKey = { connection: 'local', tenantId: 1, segment: 'ai_prompts' };

describe("the listing cache: a connection's tenants", () => {
  it('loads the tenants listing once for every reader, at the same time or later', async () => {
    const { cache, loads } = countingCache();
    const [first, second] = await Promise.all([cache.get(tenants), cache.items(tenants)]);
    assert.deepEqual(first, { ok: true, value: [{ id: 1, name: 'tenants' }] });
    assert.deepEqual(second, [{ id: 1, name: 'tenants' }]);
    assert.deepEqual(await cache.items(tenantsListing('local')), [{ id: 1, name: 'tenants' }]);
    assert.equal(loads(tenants), 1);
    assert.deepEqual(cache.peekItem(tenants, 1), { id: 1, name: 'tenants' });
  });

  it('keeps a failed load, so every reader gets the one error until it is invalidated', async () => {
    let fail = true;
    const { cache, loads } = countingCache(() =>
      fail ? Promise.reject(new Error('403 Forbidden')) : Promise.resolve([{ id: 2 }]),
    );
    await assert.rejects(cache.items(tenants), /403 Forbidden/);
    assert.deepEqual(await cache.get(tenants), { ok: false, error: new Error('403 Forbidden') });
    assert.equal(loads(tenants), 1);
    assert.equal(cache.peek(tenants), undefined);
    fail = false;
    cache.invalidate(tenants);
    assert.deepEqual(await cache.items(tenants), [{ id: 2 }]);
    assert.equal(loads(tenants), 2);
  });

  it('is a listing of its own connection: other connections have their own', async () => {
    const { cache, loads } = countingCache();
    await cache.items(tenants);
    await cache.items(tenantsListing('other'));
    cache.invalidate({ connection: 'other' });
    await cache.items(tenants);
    assert.equal(loads(tenants), 1);
    assert.equal(loads(tenantsListing('other')), 1);
  });

  /** Which of the tenants listing and a tenant's kind listing an invalidation of `scope` drops. */
  async function dropped(scope: ListingScope): Promise<{ tenants: boolean; prompts: boolean }> {
    const { cache, loads } = countingCache();
    await Promise.all([cache.get(tenants), cache.get(prompts)]);
    cache.invalidate(scope);
    await Promise.all([cache.get(tenants), cache.get(prompts)]);
    return { tenants: loads(tenants) === 2, prompts: loads(prompts) === 2 };
  }

  it('is dropped with everything, and with its connection (Refresh, a changed connection)', async () => {
    assert.deepEqual(await dropped({}), { tenants: true, prompts: true });
    assert.deepEqual(await dropped({ connection: 'local' }), { tenants: true, prompts: true });
  });

  it('is dropped alone by its own scope (a tenant saved, created or deleted), kinds staying', async () => {
    assert.deepEqual(await dropped(tenants), { tenants: true, prompts: false });
    assert.deepEqual(await dropped({ segment: 'tenants' }), { tenants: true, prompts: false });
  });

  it("is above every tenant: a tenant's or a kind's scope keeps it", async () => {
    assert.deepEqual(await dropped({ connection: 'local', tenantId: 1 }), { tenants: false, prompts: true });
    assert.deepEqual(await dropped({ connection: 'local', tenantId: 1, segment: 'ai_prompts' }), {
      tenants: false,
      prompts: true,
    });
    assert.deepEqual(await dropped({ connection: 'local', tenantId: 2 }), { tenants: false, prompts: false });
  });

  it("says which listings a scope covers: a tenant's scope never holds the tenants listing above it", () => {
    assert.ok(covers(tenants, tenants));
    assert.ok(!covers(tenants, prompts));
    assert.ok(!covers({ tenantId: 1 }, tenants));
    assert.ok(covers({ connection: 'local' }, tenants));
    assert.ok(covers({ connection: 'local', tenantId: 1 }, prompts));
    assert.ok(!covers(prompts, { connection: 'local', tenantId: 1 }));
  });

  it('reloads afresh on reload, for a reader that must see the service now', async () => {
    const { cache, loads } = countingCache();
    await cache.items(tenants);
    await cache.reload(tenants);
    assert.equal(loads(tenants), 2);
  });
});
