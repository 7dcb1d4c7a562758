import * as assert from 'node:assert/strict';
import { LIMITS, withinLimit } from '../../src/core/limits';
import { countText, NO_GROUP, pageOf, type TreeGroup, type TreeLevel } from '../../src/core/tree-groups';

interface Item {
  id: number;
  name: string;
  group?: string;
}

const byName = { nameOf: (item: Item): string => item.name };
const byGroup = { ...byName, groupOf: (item: Item): string | undefined => item.group };

function groupsOf(level: TreeLevel<Item>): readonly TreeGroup<Item>[] {
  assert.equal(level.type, 'groups');
  return level.type === 'groups' ? level.groups : [];
}

const named = (names: readonly string[]): Item[] => names.map((name, id) => ({ id, name }));
const numbered = (count: number, name: (n: number) => string): Item[] =>
  Array.from({ length: count }, (_, id) => ({ id, name: name(id) }));

/** Every item of the level, walking its groups (and theirs, once expanded) down to the items. */
function leaves(
  level: TreeLevel<Item>,
  pageSize: number,
  visit: (level: TreeLevel<Item>) => void = () => undefined,
): Item[] {
  visit(level);
  if (level.type === 'items') return [...level.items];
  return level.groups.flatMap((group) => leaves(pageOf(group.items, { pageSize, ...byName }), pageSize, visit));
}

describe("the tree's pages: groups and name ranges", () => {
  it('leaves a list of a page or less as it is, in its order', () => {
    const items = named(['b', 'a', 'c']);
    assert.deepEqual(pageOf(items, { pageSize: 3, ...byGroup }), { type: 'items', items });
  });

  it('cuts a list one longer than a page into two balanced ranges', () => {
    const groups = groupsOf(
      pageOf(
        numbered(51, (n) => `Item ${n}`),
        { pageSize: 50, ...byName },
      ),
    );
    assert.deepEqual(
      groups.map((g) => g.items.length),
      [26, 25],
    );
    assert.ok(groups.every((g) => g.by === 'range'));
  });

  it('keeps ranges balanced and never over a page, at every depth', () => {
    for (const [count, pageSize] of [
      [50_000, 50],
      [50_000, 500],
      [1_001, 500],
      [2_500, 50],
      [123_457, 5_000],
    ] as const) {
      const items = numbered(count, (n) => `Prompt ${String(n).padStart(6, '0')}`);
      const seen = leaves(pageOf(items, { pageSize, ...byName }), pageSize, (level) => {
        const size = level.type === 'items' ? level.items.length : level.groups.length;
        assert.ok(size <= pageSize, `${size} children under one node of a page of ${pageSize}`);
        if (level.type === 'groups') {
          const sizes = level.groups.map((g) => g.items.length);
          assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `unbalanced ranges: ${sizes.join(', ')}`);
        }
      });
      assert.equal(seen.length, count, 'every item once');
      assert.equal(new Set(seen.map((s) => s.id)).size, count);
    }
  });

  it('names ranges by the shortest starts that tell their edges apart', () => {
    const items = named(['Account', 'Billing', 'Callback', 'Delivery', 'Enrollment', 'Feedback']);
    assert.deepEqual(
      groupsOf(pageOf(items, { pageSize: 3, ...byName })).map((g) => g.label),
      ['A – C', 'D – F'],
    );
    const close = named(['Delivery 001', 'Delivery 002', 'Delivery 003', 'Delivery 004']);
    assert.deepEqual(
      groupsOf(pageOf(close, { pageSize: 2, ...byName })).map((g) => g.label),
      ['D – Delivery 002', 'Delivery 003 – D'],
    );
  });

  it('tells apart names that share a long start', () => {
    const items = numbered(1_000, (n) => `Customer Service Escalation Flow ${String(n).padStart(4, '0')}`);
    const labels = groupsOf(pageOf(items, { pageSize: 500, ...byName })).map((g) => g.label);
    assert.deepEqual(labels, ['C – Customer Service Escalation Flow 04', 'Customer Service Escalation Flow 05 – C']);
  });

  it("orders by name, case and accents aside, digits by value, ties in the list's order", () => {
    const items = named(['Zeta', 'Ärger', 'apple', 'Item 10', 'Item 9', 'Apple', 'Écran', 'Émile']);
    const [first, second] = groupsOf(pageOf(items, { pageSize: 4, ...byName }));
    assert.deepEqual(
      first?.items.map((i) => i.name),
      ['apple', 'Apple', 'Ärger', 'Écran'],
    );
    assert.deepEqual(
      second?.items.map((i) => i.name),
      ['Émile', 'Item 9', 'Item 10', 'Zeta'],
    );
    assert.deepEqual([first?.label, second?.label], ['a – Éc', 'Ém – Z']);
  });

  it('keeps characters outside the basic plane whole in labels', () => {
    const items = named(['😀 one', '😀 two', '😎 three', '😎 four']);
    const labels = groupsOf(pageOf(items, { pageSize: 2, ...byName })).map((g) => g.label);
    assert.deepEqual(labels, ['😀', '😎']);
  });

  it("groups by a field when that gives a page of groups, the list's order within each, no group last", () => {
    const items: Item[] = [
      { id: 1, name: 'b', group: 'group-010' },
      { id: 2, name: 'a', group: 'group-9' },
      { id: 3, name: 'c', group: '' },
      { id: 4, name: 'd', group: 'group-010' },
      { id: 5, name: 'e' },
      { id: 6, name: 'f', group: '  ' },
    ];
    const groups = groupsOf(pageOf(items, { pageSize: 3, ...byGroup }));
    assert.deepEqual(
      groups.map((g) => [g.label, g.by, g.items.map((i) => i.id)]),
      [
        ['group-9', 'field', [2]],
        ['group-010', 'field', [1, 4]],
        [NO_GROUP, 'field', [3, 5, 6]],
      ],
    );
  });

  it('uses name ranges when the field gives one group or more groups than a page', () => {
    const oneGroup = numbered(6, (n) => `P${n}`).map((item) => ({ ...item, group: 'only' }));
    assert.ok(groupsOf(pageOf(oneGroup, { pageSize: 3, ...byGroup })).every((g) => g.by === 'range'));
    const manyGroups = numbered(8, (n) => `P${n}`).map((item) => ({ ...item, group: `g${item.id}` }));
    assert.ok(groupsOf(pageOf(manyGroups, { pageSize: 3, ...byGroup })).every((g) => g.by === 'range'));
  });

  it('names an edge at an item without a name', () => {
    const labels = groupsOf(pageOf(named(['', '', 'b', 'c']), { pageSize: 2, ...byName })).map((g) => g.label);
    assert.deepEqual(labels, ['(no name)', 'b – c']);
  });

  it("reads the setting as a whole page size within its bounds (the limits table's row)", () => {
    const pageSize = (raw: unknown): number => withinLimit(LIMITS.treePageSize, raw);
    assert.deepEqual(
      [pageSize(undefined), pageSize('9'), pageSize(10), pageSize(9_999), pageSize(120.7), pageSize(120)],
      [500, 500, 50, 5_000, 500, 120],
    );
  });

  it('writes counts with thousands separators', () => {
    assert.equal(countText(1234), '1,234');
  });
});
