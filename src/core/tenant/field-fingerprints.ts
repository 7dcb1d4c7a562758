/**
 * What a manifest keeps of a field's value: a fingerprint of its canonical JSON, so that a plan tells which fields
 * changed since the pull without the folder keeping the pulled values themselves.
 */
import { hash } from 'node:crypto';
import type { Json, JsonObject } from '../json';

/** JSON with sorted keys, so a reordered object is the same value. A primitive (most fields) costs one call. */
function canonical(value: Json): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key] as Json)}`)
    .join(',')}}`;
}

// One-shot hashing: a pull fingerprints every field of every resource, and a Hash object each costs more than the hash.
// The slice is held only until the entry's fingerprints are joined into its text.
const digest = (text: string): string => hash('sha256', text, 'hex').slice(0, 16);

/** A value kept as itself (`=` and its JSON) is short and holds no space or `:`, which separate a manifest's pairs. */
const LITERAL = /^[^\s:]{1,24}$/;

/**
 * What a manifest keeps of one field's value: its canonical JSON itself when short (most fields: a number, null, a
 * short name), else a hash of it. Folders pulled before fingerprints were kept as themselves hold only hashes.
 */
function fingerprint(text: string): string {
  return text.length <= 24 && LITERAL.test(text) ? `=${text}` : digest(text);
}

/** What a manifest keeps of one field's value: its fingerprint. */
export function fieldFingerprint(value: Json): string {
  // A boolean's or a finite number's JSON is its String(), without a space or a colon, and at most 24 characters (a
  // sign, 17 digits, a point, an exponent): kept as itself, as fingerprint() would, without its JSON and pattern.
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return `=${String(value)}`;
  return fingerprint(canonical(value));
}

/** Whether a field's value is the one a manifest's fingerprint was taken of. */
export function sameFingerprint(kept: string | undefined, value: Json): boolean {
  if (kept === undefined) return false;
  const text = canonical(value);
  return kept.startsWith('=') ? kept === `=${text}` : kept === digest(text);
}

/**
 * A pulled state's fingerprints as a manifest entry keeps them: `field:fingerprint` pairs, space-separated, one string
 * per resource, read into a map only for a resource whose files changed (a large folder has 65,000 entries, and a plan
 * of it reads a few). A fingerprint holds no space or colon; a field's name has its spaces, colons and percent signs
 * written as `%20`, `%3A` and `%25`.
 */
export type FingerprintText = string;

const ESCAPED = /[ :%]/g;
/** ESCAPED without its global flag, whose lastIndex would make test() answer differently from one call to the next. */
const ESCAPED_ONE = /[ :%]/;
const ESCAPES: Readonly<Record<string, string>> = { ' ': '%20', ':': '%3A', '%': '%25' };
const UNESCAPES: Readonly<Record<string, string>> = { '%20': ' ', '%3A': ':', '%25': '%' };

// Tested before replacing: a pull writes the names of a million fields, and almost none has one of these.
const escapedName = (field: string): string =>
  ESCAPED_ONE.test(field) ? field.replace(ESCAPED, (c) => ESCAPES[c] ?? c) : field;

export function fingerprintText(fingerprints: Iterable<readonly [string, string]>): FingerprintText {
  const pairs: string[] = [];
  for (const [field, kept] of fingerprints) pairs.push(`${escapedName(field)}:${kept}`);
  return pairs.join(' ');
}

export function fingerprintsOf(text: FingerprintText): Map<string, string> {
  const fingerprints = new Map<string, string>();
  for (const pair of text.split(' ')) {
    const colon = pair.lastIndexOf(':');
    if (colon <= 0) continue;
    const field = pair.slice(0, colon);
    fingerprints.set(
      field.includes('%') ? field.replace(/%20|%3A|%25/g, (e) => UNESCAPES[e] ?? e) : field,
      pair.slice(colon + 1),
    );
  }
  return fingerprints;
}

/**
 * One fingerprint per field: what a manifest keeps of the pulled state, telling which fields changed since. In the
 * fields' order, so that the same state has the same text however its values were read.
 */
export function fieldHashes(values: JsonObject): FingerprintText {
  const fields = Object.keys(values).sort();
  return fingerprintText(fields.map((field) => [field, fieldFingerprint(values[field] as Json)]));
}

/** Whether two values are the same JSON, an object's keys in any order. */
export function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  return a === undefined || b === undefined ? a === b : canonical(a) === canonical(b);
}
