/**
 * Finds the links of Markdown texts and says which lead out of the repository or nowhere: the docs must read the
 * same in a clone, on GitHub and in the package, so every link stays inside the repository and names something
 * that is there. Test tooling, so it reads only what our own pages use: fenced code blocks and inline code spans
 * are skipped, headings are ATX (`## Title`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FoundLink {
  line: number;
  target: string;
}

export interface BadLink extends FoundLink {
  /** Relative to the repository root, with forward slashes. */
  file: string;
  reason: string;
}

/** Which lines are part of a fenced code block, its fences included. */
function fencedLines(lines: readonly string[]): boolean[] {
  let fence: { char: string; length: number } | undefined;
  return lines.map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      return true;
    }
    if (marker) fence = { char: marker[0] ?? '`', length: marker.length };
    return marker !== undefined;
  });
}

/** The text with code replaced by spaces (line breaks kept), so no link is found inside code. */
function withoutCode(text: string): string {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  return withoutCodeSpans(lines.map((line, index) => (fenced[index] ? blank(line) : line)).join('\n'));
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

/** A run of n backticks opens a span that the next run of exactly n closes, within a paragraph. */
function withoutCodeSpans(text: string): string {
  let out = '';
  let at = 0;
  const runs = /`+/g;
  for (let open = runs.exec(text); open; open = runs.exec(text)) {
    const ticks = open[0];
    const closing = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
    closing.lastIndex = open.index + ticks.length;
    const close = closing.exec(text);
    if (!close || text.slice(open.index, close.index).includes('\n\n')) continue;
    const end = close.index + ticks.length;
    out += text.slice(at, open.index) + blank(text.slice(open.index, end));
    at = end;
    runs.lastIndex = end;
  }
  return out + text.slice(at);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The destination after `](`: `<…>`, or up to white space or the `)` that balances the link's own. */
function destination(text: string, start: number): { target: string; at: number } {
  let at = start;
  while (text[at] === ' ' || text[at] === '\t' || text[at] === '\n') at++;
  if (text[at] === '<') {
    const end = text.indexOf('>', at);
    return { target: end === -1 ? '' : text.slice(at + 1, end), at: at + 1 };
  }
  let depth = 0;
  let end = at;
  for (; end < text.length; end++) {
    const char = text[end] ?? '';
    if (/\s/.test(char)) break;
    if (char === '(') depth++;
    if (char === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return { target: text.slice(at, end), at };
}

/**
 * Every link of a Markdown text outside code: inline links and images, reference definitions, autolinks, bare web
 * addresses (GitHub makes them links) and HTML href/src attributes, with the line each starts on.
 */
export function findLinks(text: string): FoundLink[] {
  const prose = withoutCode(text);
  const found = new Map<number, string>();
  // Each pattern below has one group per way of writing the target: the group that took part is the target.
  const add = (match: RegExpExecArray): void => {
    const group = match.indices?.findIndex((span, index) => index > 0 && span !== undefined) ?? -1;
    const [start] = match.indices?.[group] ?? [match.index];
    found.set(start, match[group] ?? '');
  };
  for (const match of prose.matchAll(/\]\(/g)) {
    const { target, at } = destination(prose, match.index + 2);
    found.set(at, target);
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))/dgm)) add(match);
  for (const match of prose.matchAll(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/dg))
    add(match);
  for (const match of prose.matchAll(/\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/dgi)) add(match);
  for (const match of prose.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>()]+/gi)) {
    // As GitHub does, a sentence's closing punctuation is not part of the address.
    if (!found.has(match.index)) found.set(match.index, match[0].replace(/[.,:;!?'"*_~]+$/, ''));
  }
  return [...found.entries()]
    .sort(([a], [b]) => a - b)
    .map(([offset, target]) => ({ line: lineAt(prose, offset), target }));
}

/** A heading's text as GitHub renders it: code, links and HTML tags reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
}

/** GitHub's anchors for a text's headings: lowercase, punctuation dropped, spaces to hyphens, `-1`… for repeats. */
export function headingSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  const repeats = new Map<string, number>();
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  lines.forEach((line, index) => {
    const heading = fenced[index] ? undefined : /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading === undefined) return;
    const base = headingText(heading)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    while (slugs.has(slug)) {
      const count = (repeats.get(base) ?? 0) + 1;
      repeats.set(base, count);
      slug = `${base}-${count}`;
    }
    slugs.add(slug);
  });
  return slugs;
}

/** Why a link found in `file` (relative to `root`) is not fine, or undefined when it is. */
function linkProblem(
  root: string,
  file: string,
  target: string,
  readText: (absolute: string) => string,
): string | undefined {
  if (target === '') return 'an empty link';
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target) || target.startsWith('/') || /^www\./i.test(target)) {
    return 'a link outside the repository';
  }
  const [pathPart = '', fragment] = target.split('#', 2);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart.split('?')[0] ?? '');
  } catch {
    return 'a path that is not valid percent-encoding';
  }
  const from = path.join(root, file);
  const resolved = decoded === '' ? from : path.resolve(path.dirname(from), decoded);
  const inside = path.relative(root, resolved);
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside))
    return 'a path that leaves the repository';
  if (!fs.existsSync(resolved)) return `no such file or folder: ${inside.split(path.sep).join('/')}`;
  if (fragment === undefined || !resolved.endsWith('.md') || !fs.statSync(resolved).isFile()) return undefined;
  return headingSlugs(readText(resolved)).has(fragment)
    ? undefined
    : `no heading "#${fragment}" in ${inside.split(path.sep).join('/')}`;
}

/** Every bad link of the given Markdown files (paths relative to `root`). */
export function checkLinks(root: string, files: readonly string[]): BadLink[] {
  const texts = new Map<string, string>();
  const readText = (absolute: string): string => {
    let text = texts.get(absolute);
    if (text === undefined) {
      text = fs.readFileSync(absolute, 'utf8');
      texts.set(absolute, text);
    }
    return text;
  };
  return files.flatMap((file) =>
    findLinks(readText(path.join(root, file))).flatMap(({ line, target }) => {
      const reason = linkProblem(root, file, target, readText);
      return reason === undefined ? [] : [{ file, line, target, reason }];
    }),
  );
}

/** README.md and every Markdown file below docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const docs = path.join(root, 'docs');
  const below = fs.existsSync(docs)
    ? fs
        .readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name.split(path.sep).join('/')}`)
    : [];
  return ['README.md', ...below.sort()];
}
