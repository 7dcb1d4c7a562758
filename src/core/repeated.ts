/**
 * The groups of items that share a key (names taken twice, files one on a
 * case-insensitive disk), each in the order met, the groups in the order of
 * their first member. Items without a key are in none.
 */
export function repeatedBy<T>(items: Iterable<T>, keyOf: (item: T) => string | undefined): T[][] {
  // Keys are nearly always unique: a list is made only for a key met twice.
  const first = new Map<string, T>();
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, item);
    else groups.set(key, [...(groups.get(key) ?? [earlier]), item]);
  }
  return [...first.keys()].flatMap((key) => {
    const group = groups.get(key);
    return group ? [group] : [];
  });
}
