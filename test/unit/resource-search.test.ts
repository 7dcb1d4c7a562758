import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { fold, listingIndex, SearchIndex, searchAll } from '../../src/core/resource-search';

const names = (result: { hits: { name: string }[] }): string[] => result.hits.map((hit) => hit.name);
const index = (list: readonly string[]): SearchIndex<string> => new SearchIndex(list, (name) => name);

describe('resource search: names as the user types', () => {
  const prompts = index(['Order Triage', 'Billing Orders', 'Reorder', 'Support Greeting', 'order_lookup', 'Orders 2']);

  it('ranks a name that starts with the query, then a word that does, then one that holds it', () => {
    const result = prompts.search('order', 10);
    assert.deepEqual(names(result), ['Order Triage', 'order_lookup', 'Orders 2', 'Billing Orders', 'Reorder']);
    assert.deepEqual(
      result.hits.map((hit) => hit.rank),
      [1, 1, 1, 2, 3],
    );
    assert.equal(result.total, 5);
  });

  it('ranks the name typed whole first, before names that only start alike', () => {
    const probes = index(['Form action probe', 'Form probe', 'Form probes']);
    assert.deepEqual(names(probes.search('Form probe', 10)), ['Form probe', 'Form action probe', 'Form probes']);
    assert.deepEqual(names(probes.search('  form   PROBE ', 10))[0], 'Form probe', 'case and spaces aside');
    assert.equal(probes.search('Form probe', 10).hits[0]?.rank, 0);
  });

  it('needs every word of the query, the first deciding the rank', () => {
    assert.deepEqual(names(prompts.search('ord tri', 10)), ['Order Triage']);
    assert.deepEqual(names(prompts.search('lookup order', 10)), ['order_lookup']);
    assert.deepEqual(names(prompts.search('order nothing', 10)), []);
  });

  it('finds names whatever their case and accents', () => {
    const accented = index(['Écran Support', 'Ärger', 'straße']);
    assert.deepEqual(names(accented.search('ecran', 10)), ['Écran Support']);
    assert.deepEqual(names(accented.search('ARG', 10)), ['Ärger']);
    assert.equal(fold('Émile'), 'emile');
  });

  it('keeps the best hits within the limit and counts them all', () => {
    const many = index(
      Array.from({ length: 50_000 }, (_, n) => `Billing ${String(n).padStart(5, '0')}`).concat(['Bill']),
    );
    const result = many.search('bill', 3);
    assert.deepEqual(names(result), ['Bill', 'Billing 00000', 'Billing 00001']);
    assert.equal(result.total, 50_001);
  });

  it('lists everything in name order for an empty query', () => {
    assert.deepEqual(names(index(['b', 'a', 'C']).search('  ', 10)), ['a', 'b', 'C']);
  });

  it('merges several indexes as one index of them all', () => {
    const merged = searchAll(
      [
        { index: index(['Reorder', 'Orders']), source: 'a' },
        { index: index(['order_lookup', 'Billing Orders']), source: 'b' },
      ],
      'order',
      3,
    );
    assert.deepEqual(
      merged.hits.map((hit) => [hit.name, hit.source]),
      [
        ['order_lookup', 'b'],
        ['Orders', 'a'],
        ['Billing Orders', 'b'],
      ],
    );
    assert.equal(merged.total, 4);
  });

  it("builds a listing's index once, by the names the tree shows", () => {
    const listing: JsonObject[] = [
      { id: 1, name: 'cancel_order', display_name: 'Cancel order' },
      { id: 2, name: 'x' },
      { name: 'no id' },
    ];
    const built = listingIndex(listing, 'intent');
    assert.equal(listingIndex(listing, 'intent'), built);
    assert.equal(built.size, 2);
    assert.deepEqual(names(built.search('cancel', 5)), ['Cancel order']);
  });
});
