/**
 * Structural checks of the flow map's Mermaid and DOT texts, since neither
 * tool is installed where the tests run: every line is a statement the
 * drawing's grammar takes, every label's text is closed and escaped, no text
 * reads as a Mermaid directive or comment or as a DOT entity, and every edge
 * runs between declared nodes. And the labels as the tools would show them.
 */

/** Controls and bidirectional controls: a label showing one would break a line or reorder what follows. */
const ACTIVE = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const MERMAID_ID = '[A-Za-z0-9_]+';
/**
 * A quoted label whose text holds no quote, `#` only as an entity code (`#quot;`, `#35;`), no `%` (`%%{` starts a
 * directive anywhere in the text), no backslash (`\n` breaks a line), no colon before a word character (`fa:fa-car`
 * is an icon) and no control or bidirectional control.
 */
const MERMAID_LABEL = `"(?:[^"#<>\`&%\\\\:${ACTIVE}]|:(?!\\w)|#\\w+;)*"`;
const MERMAID = {
  node: new RegExp(`^  (${MERMAID_ID})\\[${MERMAID_LABEL}\\]$`),
  edge: new RegExp(`^  (${MERMAID_ID}) (?:-->|-\\.->)\\|${MERMAID_LABEL}\\| (${MERMAID_ID})$`),
  classDef: /^ {2}classDef [a-z]+ [a-z-]+:[^,;\s]+(?: [^,;\s]+)*(?:,[a-z-]+:[^,;\s]+(?: [^,;\s]+)*)*$/,
  class: new RegExp(`^  class (${MERMAID_ID}(?:,${MERMAID_ID})*) [a-z]+$`),
  linkStyle: /^ {2}linkStyle (\d+(?:,\d+)*) [a-z-]+:[^,;\s]+(?:,[a-z-]+:[^,;\s]+)*$/,
};

/** What is wrong with a Mermaid flowchart, line by line; none for a valid one. */
export function mermaidProblems(text: string): string[] {
  const [header, ...lines] = text.replace(/\n$/, '').split('\n');
  const problems = header === 'flowchart LR' ? [] : [`the first line is "${header ?? ''}", not "flowchart LR"`];
  // Mermaid takes `%%{…}%%` for configuration, and an unclosed `%%{` swallows the rest, wherever it stands.
  if (text.includes('%%')) problems.push('"%%" starts a directive or a comment');
  const nodes = new Set<string>();
  const used: string[] = [];
  let links = 0;
  for (const line of lines) {
    const node = MERMAID.node.exec(line);
    const edge = MERMAID.edge.exec(line);
    const classes = MERMAID.class.exec(line);
    const linkStyle = MERMAID.linkStyle.exec(line);
    if (node) {
      if (nodes.has(node[1] as string)) problems.push(`node ${node[1] ?? ''} is declared twice`);
      nodes.add(node[1] as string);
    } else if (edge) {
      used.push(edge[1] as string, edge[2] as string);
      links += 1;
    } else if (classes) used.push(...(classes[1] as string).split(','));
    else if (linkStyle) {
      for (const index of (linkStyle[1] as string).split(',').map(Number))
        if (index >= links) problems.push(`linkStyle ${index} names no link`);
    } else if (!MERMAID.classDef.test(line)) problems.push(`not a statement: ${JSON.stringify(line)}`);
  }
  for (const id of used) if (!nodes.has(id)) problems.push(`${id} is used but not declared`);
  return problems;
}

type Token = { kind: 'id' | 'string'; text: string } | { kind: 'symbol'; text: string };

/** DOT's tokens: quoted strings (a backslash takes the next character with it), bare ids, symbols. */
function dotTokens(text: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) i += 1;
    else if (c === '"') {
      let value = '';
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\n') return `a quoted string runs over a line break: ${JSON.stringify(value)}`;
        if (text[i] === '\\') {
          value += text.slice(i, i + 2);
          i += 2;
        } else value += text[i++];
      }
      if (i >= text.length) return `a quoted string is never closed: ${JSON.stringify(value)}`;
      i += 1;
      tokens.push({ kind: 'string', text: value });
    } else if (text.startsWith('->', i)) {
      tokens.push({ kind: 'symbol', text: '->' });
      i += 2;
    } else if ('{}[]=,;'.includes(c)) {
      tokens.push({ kind: 'symbol', text: c });
      i += 1;
    } else {
      const word = /^[A-Za-z0-9_.]+/.exec(text.slice(i))?.[0];
      if (!word) return `unexpected ${JSON.stringify(c)} at ${i}`;
      tokens.push({ kind: 'id', text: word });
      i += word.length;
    }
  }
  return tokens;
}

/** What is wrong with a DOT digraph: its statements (nodes, edges, attributes), each ending in `;`, braces balanced. */
export function dotProblems(text: string): string[] {
  const tokens = dotTokens(text);
  if (typeof tokens === 'string') return [tokens];
  const strings = tokens.filter((token) => token.kind === 'string').map((token) => token.text);
  // Graphviz decodes HTML entities in a quoted string: `&lt;b&gt;` would show as `<b>`.
  const entities = strings
    .filter((string) => /&(?!amp;)/.test(string))
    .map((string) => `a string holds an entity Graphviz decodes: ${JSON.stringify(string)}`);
  const active = strings
    .filter((string) => new RegExp(`[${ACTIVE}]`).test(string))
    .map((string) => `a string holds a control character: ${JSON.stringify(string)}`);
  if (entities.length > 0 || active.length > 0) return [...entities, ...active];
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const take = (): Token | undefined => tokens[at++];
  const is = (token: Token | undefined, text: string): boolean => token?.kind === 'symbol' && token.text === text;
  const isId = (token: Token | undefined): token is Token => token?.kind === 'id' || token?.kind === 'string';
  const problems: string[] = [];
  const expect = (ok: boolean, what: string): boolean => {
    if (!ok)
      problems.push(
        `expected ${what} at token ${at}: ${JSON.stringify(tokens.slice(Math.max(0, at - 3), at + 3).map((t) => t.text))}`,
      );
    return ok;
  };
  const attributes = (): boolean => {
    take();
    while (!is(peek(), ']')) {
      if (!expect(isId(take()) && is(take(), '=') && isId(take()), 'name=value')) return false;
      if (is(peek(), ',')) take();
    }
    take();
    return true;
  };
  if (!expect(peek()?.text === 'digraph' && isId(take()) && isId(take()) && is(take(), '{'), 'digraph "name" {'))
    return problems;
  const nodes = new Set<string>();
  const ends: string[] = [];
  while (at < tokens.length && !is(peek(), '}')) {
    const first = take();
    if (!isId(first)) return [...problems, `expected a statement at token ${at - 1}`];
    if (is(peek(), '=')) {
      take();
      if (!expect(isId(take()), 'a value')) return problems;
    } else if (is(peek(), '->')) {
      take();
      const to = take();
      if (!isId(to)) return [...problems, `expected an edge's end at token ${at - 1}`];
      ends.push(first.text, to.text);
      if (is(peek(), '[') && !attributes()) return problems;
    } else if (is(peek(), '[')) {
      if (!['node', 'edge', 'graph'].includes(first.text) || first.kind === 'string') nodes.add(first.text);
      if (!attributes()) return problems;
    } else nodes.add(first.text);
    if (!expect(is(take(), ';'), '";" ending the statement')) return problems;
  }
  expect(is(take(), '}') && at === tokens.length, 'the closing "}" last');
  for (const end of ends) if (!nodes.has(end)) problems.push(`${end} is an edge's end but not declared`);
  return problems;
}

const NAMED: Readonly<Record<string, string>> = { quot: '"', lt: '<', gt: '>', amp: '&' };

/** Each node's label as Mermaid shows it: its entity codes (`#quot;`, `#37;`) decoded, once. */
export function mermaidLabels(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const label = new RegExp(`^  ${MERMAID_ID}\\[(${MERMAID_LABEL})\\]$`).exec(line)?.[1];
    if (label === undefined) return [];
    return [
      label
        .slice(1, -1)
        .replace(/#(\w+);/g, (code, name: string) =>
          /^\d+$/.test(name) ? String.fromCodePoint(Number(name)) : (NAMED[name] ?? code),
        ),
    ];
  });
}

/** Each `label` as Graphviz shows it: the string's escapes taken, then its HTML entities decoded, once. */
export function dotLabels(text: string): string[] {
  const tokens = dotTokens(text);
  if (typeof tokens === 'string') return [];
  return tokens.flatMap((token, i) => {
    const value = tokens[i + 2];
    if (token.text !== 'label' || tokens[i + 1]?.text !== '=' || value?.kind !== 'string') return [];
    return [
      value.text
        .replace(/\\(.)/g, '$1')
        .replace(/&(\w+|#\d+);/g, (code, name: string) =>
          name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (NAMED[name] ?? code),
        ),
    ];
  });
}
