/**
 * The flow map as a Mermaid flowchart, which the big code hosts render in a
 * pull request's comment. Every label is quoted and names are escaped with
 * Mermaid's entity codes, so no name (quotes, brackets, HTML, line breaks)
 * can end a label early or become markup; ids are made of letters, digits
 * and `_` alone. Mermaid looks for `%%{…}%%` directives in the whole text,
 * quoted labels included, so no `%` is written as itself either.
 */
import { missingLabel, missingTargets, nodeLabel, type MapMarks } from './drawing';
import type { FlowMap } from './model';

/**
 * Entity codes for what would end a quoted label, start an entity or a Markdown string, read as HTML, start a
 * directive or a comment (`%%`), or, in a label Mermaid draws without HTML, break its line (`\n`).
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '#': '#35;',
  '"': '#quot;',
  '<': '#lt;',
  '>': '#gt;',
  '&': '#amp;',
  '`': '#96;',
  '%': '#37;',
  '\\': '#92;',
};

function quoted(text: string): string {
  // Mermaid draws `fa:fa-car` (and, where icon packs are registered, any `pack:icon`) as an icon: a colon before a
  // word character is written as its entity code, so such a name stays text.
  return `"${text.replace(/[#"<>&`%\\]/g, (c) => ENTITIES[c] ?? c).replace(/:(?=\w)/g, '#58;')}"`;
}

/** Mermaid ids from map ids: `ai_prompts/12` reads `ai_prompts_12`; ids that would read alike get a number. */
function idMaker(): (key: string) => string {
  const made = new Map<string, string>();
  const taken = new Set<string>();
  return (key) => {
    let id = made.get(key);
    if (id === undefined) {
      const base = key.replace(/[^A-Za-z0-9_]/g, '_');
      id = base;
      for (let n = 2; taken.has(id); n += 1) id = `${base}_${n}`;
      made.set(key, id);
      taken.add(id);
    }
    return id;
  };
}

export function mermaidFlowMap(map: FlowMap, marks: MapMarks = {}): string {
  const idOf = idMaker();
  // A node's key never starts with `missing:` (it starts with its segment), so a missing one cannot take a node's id.
  const missingId = (target: string): string => idOf(`missing:${target}`);
  const lines = ['flowchart LR'];
  for (const node of map.nodes) lines.push(`  ${idOf(node.id)}[${quoted(nodeLabel(node))}]`);
  const missing = missingTargets(map);
  for (const target of missing) lines.push(`  ${missingId(target)}[${quoted(missingLabel(target))}]`);
  for (const edge of map.edges) lines.push(`  ${idOf(edge.from)} -->|${quoted(edge.kind)}| ${idOf(edge.to)}`);
  const dangling = map.problems.flatMap((p) => (p.kind === 'dangling' ? [p] : []));
  for (const problem of dangling)
    lines.push(`  ${idOf(problem.from)} -.->|${quoted(problem.field)}| ${missingId(problem.target)}`);
  const changed = map.nodes.filter((n) => marks.changed?.has(n.id));
  if (changed.length > 0)
    lines.push(
      '  classDef changed stroke-width:4px,font-weight:bold',
      `  class ${changed.map((n) => idOf(n.id)).join(',')} changed`,
    );
  if (dangling.length > 0) {
    lines.push(
      '  classDef missing stroke:red,stroke-dasharray:5 5,color:red',
      `  class ${missing.map(missingId).join(',')} missing`,
    );
    // Links are numbered in the order they were written: the dangling ones follow the edges.
    lines.push(`  linkStyle ${dangling.map((_, i) => map.edges.length + i).join(',')} stroke:red`);
  }
  return `${lines.join('\n')}\n`;
}
