/**
 * `--shard i/n`: the cases of a run split into n disjoint parts by a stable
 * hash of file and case name, so parallel CI jobs share the work without
 * talking to each other, and a case stays in its shard from run to run.
 */

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** `i/n` with 1 ≤ i ≤ n, or undefined. */
export function parseShard(text: string): Shard | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return Number.isSafeInteger(count) && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** 32-bit FNV-1a over the UTF-16 code units: fixed across Node versions and machines, unlike any built-in hash. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Whether a case belongs to the shard; `file` is the suite's path relative to the working folder, with / separators. */
export function inShard(shard: Shard, file: string, caseName: string): boolean {
  return fnv1a(`${file}\n${caseName}`) % shard.count === shard.index - 1;
}
