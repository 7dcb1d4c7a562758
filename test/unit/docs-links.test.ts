import * as assert from 'node:assert/strict';
import { repoRoot } from '../harness/paths';
import { checkLinks, documentationFiles } from '../support/markdown-links';

// The docs are read in a clone, on GitHub and (the README) in the Marketplace: no link may lead out of the
// repository, to a file that is not in it, or to a heading that is not there.
describe('documentation links', () => {
  it('stay inside the repository and name files and headings that exist', () => {
    const files = documentationFiles(repoRoot);
    assert.ok(files.includes('docs/user-guide.md'), `the docs are found: ${files.join(', ')}`);
    const bad = checkLinks(repoRoot, files).map(
      ({ file, line, target, reason }) => `${file}:${line}: ${target}: ${reason}`,
    );
    assert.deepEqual(bad, []);
  });
});
