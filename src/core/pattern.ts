/**
 * Patterns that users write (a prompt test's `matches`, a `pattern` or `patternProperties` of a test's JSON Schema),
 * matched in linear time by RE2 (re2js): JavaScript's backtracking engine can take years over a pattern such as
 * `(a+)+$` and an answer of forty characters, and it holds the event loop meanwhile, so not even Ctrl+C gets through.
 * A pattern is written as JavaScript reads it; what RE2 cannot run in linear time (backreferences, lookaround) is a
 * problem when the suite is read, never a surprise at run time.
 */
import type { RE2JS as Re2 } from 're2js';
import { messageOf } from './text';
import { LIMITS } from './limits';

let engine: typeof Re2 | undefined;

/**
 * re2js, loaded at the first pattern rather than with its importers: evaluating it is a large share of the start of a
 * command that matches nothing (a plan, a pull), so the bundles keep it in a file of their own (dist/re2js.js).
 */
function re2js(): typeof Re2 {
  // A require, not an import: an import would load it with the module that names it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= (require('re2js') as { RE2JS: typeof Re2 }).RE2JS;
  return engine;
}

export interface Pattern {
  /** Whether the pattern is found anywhere in `text`. */
  test(text: string): boolean;
  /** The pattern as messages show it: `/source/flags`. */
  readonly shown: string;
}

/** A pattern ready to match, or why it cannot be one (a sentence without a subject: "uses …", "is …"). */
export type Compiled = { pattern: Pattern; problem?: undefined } | { pattern?: undefined; problem: string };

/** JavaScript's flags that change what a pattern matches, and RE2's for them; `u` is how RE2 always reads text (by code point). */
const FLAGS: Readonly<Record<string, (re2: typeof Re2) => number>> = {
  i: (r) => r.CASE_INSENSITIVE,
  m: (r) => r.MULTILINE,
  s: (r) => r.DOTALL,
  u: () => 0,
};

/**
 * `g` asks JavaScript for every match, which a test that asks whether there is one does not need: accepted, so that a
 * pattern copied from code runs as it reads. `y` would anchor the search at the text's start, which `^` says plainly.
 */
const HARMLESS = 'g';
const FLAG_LIST = 'i (ignore case), m (^ and $ at every line), s (. matches line breaks too) or u';

/** `/pattern/flags`: the flags are letters, so `/api/v1` is a bare pattern, while a typo such as `/ok/I` is caught. */
const LITERAL = /^\/(.*)\/([A-Za-z]*)$/s;

/**
 * Linear time is the text's length times the program's, so the program's size bounds a match's time: `[a-z]{5000}`
 * on an answer of a few thousand characters would take seconds. Patterns people write to check an answer are far
 * smaller; a length limit is maxLength's.
 */
const MAX_PROGRAM = LIMITS.patternProgram.value;

/** Compiled patterns by flags and source: a case repeated a hundred times, or a schema checked against every key, compiles once. */
const cache = new Map<string, Compiled>();
const CACHE_SIZE = LIMITS.patternCache.value;

/** A `matches` assertion's pattern: `/pattern/flags` or a bare pattern. */
export function writtenPattern(written: string): Compiled {
  const literal = LITERAL.exec(written);
  const source = literal ? (literal[1] as string) : written;
  const flags = literal ? (literal[2] as string) : '';
  const problem = flagProblem(flags);
  return problem === undefined ? compiled(source, flags) : { problem };
}

/** A JSON Schema's pattern: ECMA-262 syntax read with the `u` flag, as draft-07 says, found anywhere in the text. */
export function schemaPattern(source: string): Compiled {
  return compiled(source, 'u');
}

function flagProblem(flags: string): string | undefined {
  const seen = new Set<string>();
  for (const flag of flags) {
    if (seen.has(flag)) return `gives the flag "${flag}" twice; give each flag once`;
    seen.add(flag);
    if (flag === 'y')
      return 'has the flag "y" (sticky), which means nothing for a test: the whole text is searched; start the pattern with ^ to match at the start';
    if (!Object.hasOwn(FLAGS, flag) && flag !== HARMLESS)
      return `has "${flag}", which is no flag here; use ${FLAG_LIST}`;
  }
  return undefined;
}

function compiled(source: string, flags: string): Compiled {
  const key = `${flags}/${source}`;
  const known = cache.get(key);
  if (known) return known;
  const result = compile(source, flags);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(key, result);
  return result;
}

function compile(source: string, flags: string): Compiled {
  try {
    // Only to read the syntax as JavaScript reads it, with its messages: this RegExp never matches anything.
    new RegExp(source, flags);
  } catch (error) {
    return { problem: `is not a valid regular expression (${messageOf(error)})` };
  }
  const rewritten = forRe2(source);
  if ('problem' in rewritten) return rewritten;
  const RE2JS = re2js();
  let re2: Re2;
  try {
    re2 = RE2JS.compile(
      RE2JS.translateRegExp(rewritten.source),
      [...flags].reduce((all, flag) => all | (FLAGS[flag]?.(RE2JS) ?? 0), 0),
    );
  } catch (error) {
    return { problem: `cannot be matched in linear time (${messageOf(error)}); simplify it` };
  }
  if (re2.programSize() > MAX_PROGRAM) {
    return {
      problem: `is too large to match quickly (${re2.programSize()} steps; at most ${MAX_PROGRAM}): use smaller repeat counts, and leave a length limit to maxLength`,
    };
  }
  return { pattern: { shown: `/${source}/${flags}`, test: (text) => re2.test(text) } };
}

/** At `lastIndex`: an escaped surrogate pair, and a lookaround's opening. */
const SURROGATE_PAIR = /\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/iy;
const LOOKAROUND = /\(\?(<?)([=!])/y;

const UNSUPPORTED = 'which linear-time matching (which keeps any pattern from stalling a run) does not support';

/**
 * The source as RE2 can take it after re2js's translation of JavaScript's syntax, or the construct it cannot: that
 * translation would read `\k<name>` as the letters "k<name>", and it splits an escaped surrogate pair, which RE2
 * (matching code points) would then never find.
 */
function forRe2(source: string): { source: string } | { problem: string } {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      const escape = source.slice(i, i + 2);
      SURROGATE_PAIR.lastIndex = i;
      const pair = SURROGATE_PAIR.exec(source);
      if (pair) {
        const high = parseInt(pair[1] as string, 16);
        const low = parseInt(pair[2] as string, 16);
        out += `\\u{${(((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000).toString(16)}}`;
        i += pair[0].length - 1;
        continue;
      }
      if (!inClass && (/^\\[1-9]$/.test(escape) || source.startsWith('\\k<', i))) {
        return {
          problem: `uses the backreference ${/^\\[1-9]$/.test(escape) ? escape : '\\k<…>'}, ${UNSUPPORTED}: write out the text it repeats, or check it with another assertion`,
        };
      }
      out += escape;
      i++;
    } else if (inClass) {
      inClass = c !== ']';
      out += c;
    } else {
      LOOKAROUND.lastIndex = i;
      const look = LOOKAROUND.exec(source);
      if (look) {
        const kind = look[1] === '<' ? 'lookbehind' : 'lookahead';
        return {
          problem: `uses the ${kind} ${look[0]}…), ${UNSUPPORTED}: match the text it looks ${look[1] === '<' ? 'behind' : 'ahead'} for as part of the pattern; for text that must not appear, use notContains (in a JSON Schema, "not": { "pattern": … })`,
        };
      }
      inClass = c === '[';
      out += c;
    }
  }
  return { source: out };
}
