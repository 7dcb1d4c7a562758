/**
 * Passwords inside URLs (`postgres://user:secret@db/x`), in any string of any
 * resource: a folder holds them as a marker so the rest of the URL stays
 * readable and editable, a push sends the service's own password in its place,
 * and a document shows them masked the same way with CREDENTIAL_MASK as the marker.
 *
 * A URL is `scheme://` and an authority up to the first `/`, `?`, `#`,
 * whitespace or the end; its user-info runs to the authority's LAST `@`, as
 * WHATWG URL parsing reads `user:p@ss@host`, and its password follows the
 * user-info's first `:`. A marker must be non-empty and hold none of those
 * delimiters, or a hidden password would no longer read back as one.
 */
import { isJsonObject, own, type Json, type JsonPath } from './json';

interface UrlPassword {
  /** Offsets of the password in the string. */
  start: number;
  end: number;
  /** The URL's scheme, user and host: which account the password belongs to. */
  owner: string;
}

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
const LETTER = /[A-Za-z]/;

/**
 * The passwords of the URLs in a text, in order. It looks for `://` and reads
 * the scheme backwards rather than matching a scheme pattern forwards, which
 * would rescan every long run of letters (a base64 blob) once per position.
 * The search goes on right after each `://`, so in `a://u:p@h,b://v:q@i` the
 * second URL is found too although a parser would read `b:` as part of the
 * first one's authority: a password is hidden whenever it could be one.
 */
function urlPasswords(text: string): UrlPassword[] {
  const found: UrlPassword[] = [];
  const authorityPattern = /[^/?#\s]*/y;
  for (let colon = text.indexOf('://'); colon !== -1; colon = text.indexOf('://', colon + 3)) {
    let runStart = colon;
    while (runStart > 0 && SCHEME_CHAR.test(text.charAt(runStart - 1))) runStart -= 1;
    let schemeStart = runStart;
    while (schemeStart < colon && !LETTER.test(text.charAt(schemeStart))) schemeStart += 1;
    if (schemeStart === colon) continue;
    const from = colon + 3;
    authorityPattern.lastIndex = from;
    const authority = authorityPattern.exec(text)?.[0] ?? '';
    const at = authority.lastIndexOf('@');
    const separator = at === -1 ? -1 : authority.indexOf(':');
    // No user-info, no `:` before the `@` (the one found is the port's), or an empty password: nothing to hide.
    if (separator === -1 || separator + 1 >= at) continue;
    found.push({
      start: from + separator + 1,
      end: from + at,
      owner: `${text.slice(schemeStart, colon)}://${authority.slice(0, separator)}@${authority.slice(at + 1)}`,
    });
  }
  return found;
}

/** A copy of the text with each password replaced by what `next` gives for it. */
function withPasswords(
  text: string,
  passwords: UrlPassword[],
  next: (password: UrlPassword, index: number) => string,
): string {
  let out = '';
  let copied = 0;
  passwords.forEach((password, index) => {
    out += text.slice(copied, password.start) + next(password, index);
    copied = password.end;
  });
  return out + text.slice(copied);
}

/** A copy of `value` with each string mapped, given the value at the same path of `current` to draw on. */
function mapStrings(
  value: Json,
  current: Json | undefined,
  path: JsonPath,
  map: (text: string, current: Json | undefined, path: JsonPath) => string,
): Json {
  if (typeof value === 'string') return map(value, current, path);
  if (Array.isArray(value))
    return value.map((item, index) =>
      mapStrings(item, Array.isArray(current) ? current[index] : undefined, [...path, index], map),
    );
  if (isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        mapStrings(item, isJsonObject(current) ? own(current, key) : undefined, [...path, key], map),
      ]),
    );
  }
  return value;
}

/** Whether a string of `value` holds `part`: most values hold no URL, and then need no copy. */
function someStringHolds(value: Json, part: string): boolean {
  if (typeof value === 'string') return value.includes(part);
  if (Array.isArray(value)) {
    for (const item of value) if (someStringHolds(item, part)) return true;
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) if (someStringHolds(value[key] as Json, part)) return true;
  }
  return false;
}

/** `value` with every URL password in every string replaced by `marker` (a copy when there is one); keys stay as they are. */
export function hideUrlPasswords(value: Json, marker: string): Json {
  if (!someStringHolds(value, '://')) return value;
  return mapStrings(value, undefined, [], (text) => withPasswords(text, urlPasswords(text), () => marker));
}

/**
 * The inverse for a push: the n-th URL password of a string in `local` that
 * is `marker` takes the n-th URL password of the string at the same path in
 * `current`, the service's value. A counterpart for another scheme, user or
 * host is none: a marker left on a URL whose host was edited must not send the
 * old host's password to the new one. Nor is a counterpart that is the marker
 * itself, as the service then no longer holds the password. `missing` names
 * each string that still holds a marker, once, with the marker left there.
 */
export function restoreUrlPasswords(
  local: Json,
  current: Json | undefined,
  marker: string,
): { value: Json; missing: JsonPath[] } {
  if (!someStringHolds(local, marker)) return { value: local, missing: [] };
  const missing: JsonPath[] = [];
  const value = mapStrings(local, current, [], (text, held, path) => {
    if (!text.includes(marker)) return text;
    const heldText = typeof held === 'string' ? held : '';
    const heldPasswords = urlPasswords(heldText);
    let unresolved = false;
    const restored = withPasswords(text, urlPasswords(text), (password, index) => {
      const own = text.slice(password.start, password.end);
      if (own !== marker) return own;
      const counterpart = heldPasswords[index];
      const heldPassword =
        counterpart?.owner === password.owner ? heldText.slice(counterpart.start, counterpart.end) : marker;
      if (heldPassword === marker) unresolved = true;
      return heldPassword;
    });
    if (unresolved) missing.push(path);
    return restored;
  });
  return { value, missing };
}

/** The paths of the strings holding `marker` as a URL password: what a push of a new resource could not resolve. */
export function urlPasswordMarkers(value: Json, marker: string): JsonPath[] {
  return restoreUrlPasswords(value, undefined, marker).missing;
}
