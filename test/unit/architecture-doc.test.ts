import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');
const page = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

function folders(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true })
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
});
