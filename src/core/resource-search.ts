/**
 * Names searched as the user types (Go to Resource, completion of
 * references): an index built once per list, so a keystroke scans folded
 * names already in name order and sorts nothing. A name that starts with the
 * query ranks first, then one with a word that does, then one that holds it;
 * every word of the query must occur.
 */
import type { JsonObject } from './json';
import { resourceTitle } from './labels';
import type { KindId } from './resource-kind';

/** How well a name matches, best first: 0 the whole name, 1 at its start, 2 at a word's start, 3 inside a word. */
export type MatchRank = 0 | 1 | 2 | 3;

export interface SearchHit<T> {
  value: T;
  name: string;
  rank: MatchRank;
}

export interface SearchResult<T> {
  /** The best `limit` hits, by rank, then by name. */
  hits: SearchHit<T>[];
  /** How many names matched in all. */
  total: number;
}

interface Entry<T> {
  value: T;
  name: string;
  folded: string;
}

/** Case and accents aside: `Écran` is found by `ecran`. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const isWordCharacter = (character: string | undefined): boolean =>
  character !== undefined && /[\p{L}\p{N}]/u.test(character);

/** How `folded` holds `word`: at its start, at a word's start, inside a word, or not at all. */
function rankOf(folded: string, word: string): Exclude<MatchRank, 0> | undefined {
  let at = folded.indexOf(word);
  if (at < 0) return undefined;
  if (at === 0) return 1;
  while (at >= 0) {
    if (!isWordCharacter(folded[at - 1])) return 2;
    at = folded.indexOf(word, at + 1);
  }
  return 3;
}

export class SearchIndex<T> {
  private readonly entries: Entry<T>[];

  constructor(items: readonly T[], nameOf: (item: T) => string) {
    this.entries = items.map((value) => {
      const name = nameOf(value);
      return { value, name, folded: fold(name) };
    });
    this.entries.sort((a, b) => (a.folded < b.folded ? -1 : a.folded > b.folded ? 1 : 0));
  }

  get size(): number {
    return this.entries.length;
  }

  search(query: string, limit: number): SearchResult<T> {
    const words = fold(query)
      .split(/\s+/)
      .filter((word) => word !== '');
    const whole = words.join(' ');
    const buckets: SearchHit<T>[][] = [[], [], [], []];
    let total = 0;
    for (const entry of this.entries) {
      const rank = words.length === 0 ? 1 : entry.folded === whole ? 0 : rankOfAll(entry.folded, words);
      if (rank === undefined) continue;
      total++;
      const bucket = buckets[rank];
      if (bucket && bucket.length < limit) bucket.push({ value: entry.value, name: entry.name, rank });
    }
    return { hits: buckets.flat().slice(0, limit), total };
  }
}

/** The first word decides the rank; the others need only occur. */
function rankOfAll(folded: string, words: readonly string[]): MatchRank | undefined {
  const [first, ...rest] = words;
  const rank = first === undefined ? 1 : rankOf(folded, first);
  if (rank === undefined || rest.some((word) => !folded.includes(word))) return undefined;
  return rank;
}

/** The best `limit` hits of several indexes, as one index of them all would give, each with the source it came from. */
export function searchAll<T, S>(
  sources: readonly { index: SearchIndex<T>; source: S }[],
  query: string,
  limit: number,
): { hits: (SearchHit<T> & { source: S })[]; total: number } {
  const results = sources.map(({ index, source }) => {
    const result = index.search(query, limit);
    return { total: result.total, hits: result.hits.map((hit) => ({ ...hit, source, folded: fold(hit.name) })) };
  });
  const hits = results.flatMap((result) => result.hits);
  hits.sort((a, b) => a.rank - b.rank || (a.folded < b.folded ? -1 : a.folded > b.folded ? 1 : 0));
  return {
    hits: hits.slice(0, limit).map(({ folded: _folded, ...hit }) => hit),
    total: results.reduce((sum, result) => sum + result.total, 0),
  };
}

const listingIndexes = new WeakMap<readonly JsonObject[], SearchIndex<JsonObject>>();

/**
 * The index of a cached listing by its resources' names, built at its first search and kept as long as the listing
 * is (the cache drops a listing by replacing it, which leaves its index to the garbage collector).
 */
export function listingIndex(listing: readonly JsonObject[], kind: KindId): SearchIndex<JsonObject> {
  let index = listingIndexes.get(listing);
  if (!index) {
    index = new SearchIndex(
      listing.filter((item) => typeof item.id === 'number'),
      (item) => resourceTitle(kind, item),
    );
    listingIndexes.set(listing, index);
  }
  return index;
}
