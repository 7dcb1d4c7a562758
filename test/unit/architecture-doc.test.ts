import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');
const page = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

function folders(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const relative = `${dir}/${entry.name}`;
      return [relative, ...folders(relative)];
    });
}

describe('docs/architecture.md', () => {
  const named = [...page.matchAll(/`(src\/[\w/.-]+)`/g)].map((match) => (match[1] ?? '').replace(/\/$/, ''));

  it('names only folders and files of src/ that exist', () => {
    // The generated validators exist only after a build; the page says so.
    const missing = named.filter((name) => name !== 'src/core/generated' && !fs.existsSync(path.join(root, name)));
    assert.deepEqual(missing, []);
  });

  it('names every folder of src/', () => {
    const unnamed = folders('src').filter((folder) => !named.includes(folder));
    assert.deepEqual(unnamed, []);
  });

  it('names, for each rule of "Where each rule lives", a module that declares what decides it', () => {
    const section = page.slice(page.indexOf('Where each rule lives'), page.indexOf('## Layers'));
    const rows = [...section.matchAll(/^\| (.+?) \| (.+?) \| `(src\/[\w/.-]+)` \|$/gm)];
    assert.ok(rows.length >= 10, `the table lists the rules (${rows.length} rows found)`);
    const unfound: string[] = [];
    for (const [, rule, deciders, file] of rows) {
      const text = fs.readFileSync(path.join(root, file ?? ''), 'utf8');
      for (const [, name] of (deciders ?? '').matchAll(/`(\w+)`/g)) {
        const declared = new RegExp(`export (?:async )?(?:function|const|class|interface|type) ${name}\\b`);
        if (!declared.test(text)) unfound.push(`${rule}: ${name} is not declared in ${file}`);
      }
    }
    assert.deepEqual(unfound, []);
  });
});
