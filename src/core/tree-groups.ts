/**
 * One level of the tree under a node with many children: never more than a
 * page of them (the setting `convai.treePageSize`). A larger list is grouped,
 * by a field the items share (a prompt's `group`) when that gives a page of
 * groups, else into name ranges (`A – F`), balanced, each of which pages its
 * own items the same way when expanded. VS Code lays a node's children out at
 * once, so a node of 50,000 rows freezes the view; a page of groups does not.
 */

export interface TreeGroup<T> {
  /** `group-007`, or a name range `Billing 001 – Delivery` (en dash). */
  label: string;
  by: 'field' | 'range';
  /** In the list's order for a group by field, in name order for a range. */
  items: readonly T[];
}

export type TreeLevel<T> = { type: 'items'; items: readonly T[] } | { type: 'groups'; groups: readonly TreeGroup<T>[] };

export interface PageOptions<T> {
  pageSize: number;
  /** The name an item shows as, by which ranges are cut. */
  nameOf: (item: T) => string;
  /** The group an item belongs to (blank: none); tried before name ranges. */
  groupOf?: (item: T) => string | undefined;
}

/** The label of the group of items without a group. */
export const NO_GROUP = '(no group)';

/** A range's edge at an item without a name. */
const NO_NAME = '(no name)';

/** One order for every user and run: case and accents aside, digits by value, `en` for the letters. */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The children of a node holding `items`: themselves when they fit a page, else a page of groups. */
export function pageOf<T>(items: readonly T[], options: PageOptions<T>): TreeLevel<T> {
  const pageSize = Math.max(2, options.pageSize);
  if (items.length <= pageSize) return { type: 'items', items };
  const byField = options.groupOf ? groupsByField(items, options.groupOf) : undefined;
  if (byField && byField.length > 1 && byField.length <= pageSize) return { type: 'groups', groups: byField };
  return { type: 'groups', groups: nameRanges(items, pageSize, options.nameOf) };
}

function groupsByField<T>(items: readonly T[], groupOf: (item: T) => string | undefined): TreeGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groupOf(item)?.trim() || NO_GROUP;
    const members = groups.get(group);
    if (members) members.push(item);
    else groups.set(group, [item]);
  }
  const labels = [...groups.keys()].sort((a, b) =>
    a === NO_GROUP ? 1 : b === NO_GROUP ? -1 : collator.compare(a, b) || (a < b ? -1 : 1),
  );
  return labels.map((label) => ({ label, by: 'field', items: groups.get(label) ?? [] }));
}

/**
 * At most `pageSize` ranges of sizes that differ by one at most, in name order (ties in the list's order). A range
 * still larger than a page is ranged again when it is expanded.
 */
function nameRanges<T>(items: readonly T[], pageSize: number, nameOf: (item: T) => string): TreeGroup<T>[] {
  const named = items.map((item, index) => ({ item, index, name: nameOf(item) }));
  named.sort((a, b) => collator.compare(a.name, b.name) || a.index - b.index);
  const count = Math.min(pageSize, Math.ceil(named.length / pageSize));
  const size = Math.floor(named.length / count);
  const larger = named.length % count;
  const ranges: (typeof named)[] = [];
  let start = 0;
  for (let index = 0; index < count; index++) {
    const end = start + size + (index < larger ? 1 : 0);
    ranges.push(named.slice(start, end));
    start = end;
  }
  return ranges.map((range, index) => {
    const first = range[0]?.name ?? '';
    const last = range[range.length - 1]?.name ?? '';
    const from = distinctPrefix(first, ranges[index - 1]?.at(-1)?.name);
    const to = distinctPrefix(last, ranges[index + 1]?.[0]?.name);
    return {
      label: from === to ? from : `${from} – ${to}`,
      by: 'range' as const,
      items: range.map((entry) => entry.item),
    };
  });
}

/**
 * The shortest start of `name` (whole characters) that tells it from its neighbour across a range's edge, so that
 * `Delivery 001 – Delivery 002` says where the cut is; one character where there is no neighbour.
 */
function distinctPrefix(name: string, neighbour: string | undefined): string {
  if (name === '') return NO_NAME;
  const characters = Array.from(name);
  const theirs = neighbour === undefined ? undefined : Array.from(neighbour);
  for (let length = 1; length <= characters.length; length++) {
    const prefix = characters.slice(0, length).join('');
    if (theirs === undefined || collator.compare(prefix, theirs.slice(0, length).join('')) !== 0)
      return prefix.trimEnd();
  }
  return name;
}

/** `1,234`: a group's count as its label's description. */
export function countText(count: number): string {
  return count.toLocaleString('en-US');
}
