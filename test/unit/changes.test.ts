import * as assert from 'node:assert/strict';
import {
  deletion,
  documentFate,
  droppedListings,
  dropsListing,
  pushed,
  touchesTenant,
  wholeTenant,
  written,
  type Change,
} from '../../src/core/changes';
import { tenantsListing } from '../../src/core/listing-cache';
import type { FileLocation } from '../../src/core/uri';

const prompt = (id: number, tenantId = 1): FileLocation => ({
  type: 'resource',
  connection: 'local',
  tenantId,
  segment: 'ai_prompts',
  id,
});
const part = (id: number): FileLocation => ({
  type: 'part',
  connection: 'local',
  tenantId: 1,
  segment: 'ai_prompts',
  id,
  part: 'system',
});
const intent = (id: number): FileLocation => ({
  type: 'resource',
  connection: 'local',
  tenantId: 1,
  segment: 'intents',
  id,
});
const tenant = (tenantId: number, connection = 'local'): FileLocation => ({ type: 'tenant', connection, tenantId });
const kindKey = (segment: 'ai_prompts' | 'intents' | 'agents', tenantId = 1) => ({
  connection: 'local',
  tenantId,
  segment,
});

describe('the change rule: which listings a change drops', () => {
  it("a save or a create of a resource drops its kind's listing of its tenant, nothing else", () => {
    assert.deepEqual(droppedListings(written(part(3))), [kindKey('ai_prompts')]);
    assert.ok(dropsListing(written(prompt(3)), kindKey('ai_prompts')));
    assert.ok(!dropsListing(written(prompt(3)), kindKey('intents')));
    assert.ok(!dropsListing(written(prompt(3)), kindKey('ai_prompts', 2)));
    assert.ok(!dropsListing(written(prompt(3)), tenantsListing('local')));
  });

  it("a push of many changes drops each touched kind's listing once, and no untouched kind's", () => {
    const change = pushed('local', 1, [
      ...Array.from({ length: 100 }, (_, i) => ({ action: 'update' as const, segment: 'ai_prompts' as const, id: i })),
      { action: 'create', segment: 'intents' },
      { action: 'conflict', segment: 'agents', id: 9 },
    ]);
    assert.deepEqual(droppedListings(change), [kindKey('ai_prompts'), kindKey('intents')]);
    assert.ok(!dropsListing(change, kindKey('agents')), 'a conflict was not sent');
  });

  it("a tenant's own record drops its connection's tenants listing; the whole tenant drops its kinds too", () => {
    assert.deepEqual(droppedListings(written(tenant(1))), [tenantsListing('local')]);
    assert.deepEqual(droppedListings(wholeTenant('local', 1)), [
      tenantsListing('local'),
      { connection: 'local', tenantId: 1 },
    ]);
    assert.ok(dropsListing(wholeTenant('local', 1), kindKey('agents')));
    assert.ok(!dropsListing(wholeTenant('local', 1), kindKey('agents', 2)));
  });

  it('keeps no scope inside another: Refresh of everything is one scope', () => {
    const change: Change = {
      scopes: [{ type: 'everything' }, ...written(prompt(1)).scopes, { type: 'connection', connection: 'local' }],
    };
    assert.deepEqual(droppedListings(change), [{}]);
    assert.deepEqual(
      droppedListings({
        scopes: [
          { type: 'connection', connection: 'local' },
          { type: 'connection', connection: 'local' },
        ],
      }),
      [{ connection: 'local' }],
    );
  });
});

describe('the change rule: which open documents a change covers', () => {
  it('a save reloads every view of its resource (its parts too) and no other resource', () => {
    assert.equal(documentFate(written(prompt(3)), part(3)), 'reload');
    assert.equal(documentFate(written(part(3)), prompt(3)), 'reload');
    assert.equal(documentFate(written(prompt(3)), prompt(4)), 'untouched');
    assert.equal(documentFate(written(prompt(3)), prompt(3, 2)), 'untouched');
    assert.equal(documentFate(written(prompt(3)), tenant(1)), 'untouched');
  });

  it("a delete makes its resource's documents gone; a tenant's delete every document of the tenant", () => {
    assert.equal(documentFate(deletion(prompt(3)), part(3)), 'gone');
    assert.equal(documentFate(deletion(tenant(1)), intent(5)), 'gone');
    assert.equal(documentFate(deletion(tenant(1)), tenant(1)), 'gone');
    assert.equal(documentFate(deletion(tenant(1)), tenant(2)), 'untouched');
  });

  it("a tenant's record covers its own document only; the whole tenant covers all of it (a promotion, its Refresh)", () => {
    assert.equal(documentFate(written(tenant(1)), tenant(1)), 'reload');
    assert.equal(documentFate(written(tenant(1)), prompt(3)), 'untouched');
    assert.equal(documentFate(wholeTenant('local', 1), part(3)), 'reload');
    assert.equal(documentFate(wholeTenant('local', 1), prompt(3, 2)), 'untouched');
  });

  it('a push covers the resources it changed; a create has no document yet; a delete in it wins', () => {
    const change = pushed('local', 1, [
      { action: 'update', segment: 'ai_prompts', id: 3 },
      { action: 'create', segment: 'ai_prompts' },
      { action: 'delete', segment: 'intents', id: 5 },
    ]);
    assert.equal(documentFate(change, part(3)), 'reload');
    assert.equal(documentFate(change, prompt(4)), 'untouched');
    assert.equal(documentFate(change, intent(5)), 'gone');
    assert.equal(
      documentFate({ scopes: [...written(intent(5)).scopes, ...deletion(intent(5)).scopes] }, intent(5)),
      'gone',
    );
  });

  it('Refresh of a kind, a connection or everything covers what it names', () => {
    assert.equal(
      documentFate({ scopes: [{ type: 'kind', connection: 'local', tenantId: 1, segment: 'intents' }] }, intent(5)),
      'reload',
    );
    assert.equal(
      documentFate({ scopes: [{ type: 'kind', connection: 'local', tenantId: 1, segment: 'intents' }] }, prompt(5)),
      'untouched',
    );
    assert.equal(documentFate({ scopes: [{ type: 'connection', connection: 'other' }] }, prompt(5)), 'untouched');
    assert.equal(documentFate({ scopes: [{ type: 'connection', connection: 'local' }] }, tenant(2)), 'reload');
    assert.equal(documentFate({ scopes: [{ type: 'everything' }] }, tenant(2, 'other')), 'reload');
  });

  it('says which tenants a change touches, a record included', () => {
    assert.ok(touchesTenant(written(tenant(1)), 'local', 1));
    assert.ok(touchesTenant(written(prompt(1)), 'local', 1));
    assert.ok(!touchesTenant(written(prompt(1)), 'local', 2));
    assert.ok(!touchesTenant(written(prompt(1)), 'other', 1));
    assert.ok(touchesTenant({ scopes: [{ type: 'connection', connection: 'local' }] }, 'local', 7));
    assert.ok(touchesTenant({ scopes: [{ type: 'everything' }] }, 'other', 7));
  });
});
