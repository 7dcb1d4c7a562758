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
  operations: BASE,
  'tenant-folders': BASE,
  requests: BASE,
  'prompt-tests': BASE,
  'flow-map': BASE,
};

const src = path.join(__dirname, '..', '..', '..', 'src');

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
      const files = fs.readdirSync(path.join(src, folder.name), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
      for (const relative of files) {
        const file = path.join(src, folder.name, relative);
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
          const to = reached(file, match[1] ?? '');
          if (to !== undefined && to !== folder.name && !allowed.includes(to)) breaches.push(`src/${folder.name}/${relative} imports ${match[1] ?? ''}`);
        }
      }
    }
    assert.deepEqual(breaches, []);
  });
});
