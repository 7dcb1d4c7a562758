import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// What each folder of src/ may import (docs/architecture.md, "The folders"); a folder may always import itself.
const BASE = ['core', 'shared', 'ui', 'connections', 'documents', 'listings', 'log', 'commands'];
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  shared: ['core'],
  http: [],
  cli: ['core', 'http'],
  ui: ['core', 'log'],
  connections: ['core', 'shared', 'ui', 'log', 'commands'],
  documents: ['core', 'shared', 'connections', 'ui', 'log', 'commands'],
  listings: ['core', 'connections'],
  tree: BASE,
  parts: BASE,
  references: BASE,
  // Test Prompt and the Testing view run unsaved edits through the trial engine.
  operations: [...BASE, 'trials'],
  'tenant-folders': BASE,
  requests: BASE,
  'prompt-tests': [...BASE, 'trials'],
  trials: BASE,
  'flow-map': BASE,
  'variant-lab': BASE,
};

const src = path.join(__dirname, '..', '..', '..', 'src');

/** Every .ts file of src/, as a path relative to src/. */
function sources(): string[] {
  return fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
}

/** The files of src/ a file imports by a relative path, type-only imports and re-exports included. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const match of fs.readFileSync(path.join(src, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
    const target = path.join(path.dirname(file), match[1] ?? '');
    const found = [`${target}.ts`, target.replace(/\.js$/, '.ts'), path.join(target, 'index.ts')].find((f) =>
      known.has(f),
    );
    if (found !== undefined) out.push(found);
  }
  return out;
}

/**
 * The import circles among files, each as the path that closes it: a depth-first walk that meets a file still on its
 * own path. A circle is reported once, from the first of its files the walk reaches.
 */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      circles.push([...onPath.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return circles;
}

/** The top-level part of src/ (a folder, or a file without its extension) that a relative import reaches. */
function reached(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.relative(src, path.resolve(path.dirname(file), specifier));
  if (target.startsWith('..')) return undefined;
  return (target.split(path.sep)[0] ?? '').replace(/\.(ts|js)$/, '');
}

describe('the layers of src/', () => {
  it('every folder imports only what docs/architecture.md allows it', () => {
    const breaches: string[] = [];
    for (const folder of fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const allowed = ALLOWED[folder.name];
      assert.ok(allowed, `src/${folder.name} is missing from the table of this test and of docs/architecture.md`);
      const files = fs
        .readdirSync(path.join(src, folder.name), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'));
      for (const relative of files) {
        const file = path.join(src, folder.name, relative);
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
          const to = reached(file, match[1] ?? '');
          if (to !== undefined && to !== folder.name && !allowed.includes(to))
            breaches.push(`src/${folder.name}/${relative} imports ${match[1] ?? ''}`);
        }
      }
    }
    assert.deepEqual(breaches, []);
  });

  it('no file imports itself through others: src/ has no import circle', () => {
    const files = sources();
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    assert.deepEqual(
      importCircles(graph).map((circle) => circle.join(' → ')),
      [],
    );
  });

  it('finds a circle of any length, and none where imports only converge', () => {
    const graph = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
      ['e', ['f']],
      ['f', ['g']],
      ['g', ['e']],
    ]);
    assert.deepEqual(importCircles(graph), [['e', 'f', 'g', 'e']]);
  });
});
