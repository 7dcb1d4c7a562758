import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkLinks, documentationFiles, findLinks, headingSlugs } from '../support/markdown-links';

describe('Markdown link checker', () => {
  let root: string;
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const problems = (text: string): string[] => {
    write('docs/page.md', text);
    return checkLinks(root, ['docs/page.md']).map(({ line, target, reason }) => `${line} ${target}: ${reason}`);
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'markdown-links-'));
    write('README.md', '# Title\n\n## Install it\n\n## Install it\n\n## `convai.uploadOnAutoSave` & more\n');
    write('docs/other.md', '# Other page\n');
    write('media/a.png', 'png');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds inline links and images, reference definitions, autolinks, bare addresses and HTML attributes, with their lines', () => {
    const text = [
      'See [the guide](docs/guide.md "Guide") and ![a picture](media/a.png).',
      '[![nested](media/b.png)](docs/c.md)',
      '[ref]: docs/ref.md',
      '<https://example.com/a> and https://example.org/b.',
      '<img src="media/d.png"> <a href=\'docs/e.md\'>e</a>',
      '[spaced](<docs/with space.md>)',
    ].join('\n');
    assert.deepEqual(findLinks(text), [
      { line: 1, target: 'docs/guide.md' },
      { line: 1, target: 'media/a.png' },
      { line: 2, target: 'media/b.png' },
      { line: 2, target: 'docs/c.md' },
      { line: 3, target: 'docs/ref.md' },
      { line: 4, target: 'https://example.com/a' },
      { line: 4, target: 'https://example.org/b' },
      { line: 5, target: 'media/d.png' },
      { line: 5, target: 'docs/e.md' },
      { line: 6, target: 'docs/with space.md' },
    ]);
  });

  it('ignores links in fenced code blocks and inline code spans', () => {
    const text = [
      '```md',
      '[in a fence](https://example.com)',
      '```',
      '~~~~',
      '```',
      '[still fenced](missing.md)',
      '~~~~',
      'Inline `[code](https://example.com)` and ``a ` [tick](x.md)`` are text.',
      '[after](README.md)',
    ].join('\n');
    assert.deepEqual(findLinks(text), [{ line: 9, target: 'README.md' }]);
  });

  it("gives headings GitHub's anchors: lowercase, punctuation dropped, spaces to hyphens, repeats numbered", () => {
    const slugs = headingSlugs(
      '# Title\n## Install it\n## Install it\n### `convai.x` & [more](y.md)!\n```\n# not a heading\n```\n## Ünïcode_names\n',
    );
    assert.deepEqual([...slugs], ['title', 'install-it', 'install-it-1', 'convaix--more', 'ünïcode_names']);
  });

  it('accepts relative links to files, folders and headings inside the repository', () => {
    assert.deepEqual(
      problems(
        [
          '[readme](../README.md) [heading](../README.md#install-it) [again](../README.md#install-it-1)',
          '[code heading](../README.md#convaiuploadonautosave--more) [here](#a-heading) [folder](../media/)',
          '![picture](../media/a.png) [other](other.md#other-page) [encoded](other%2Emd)',
          '## A heading',
        ].join('\n'),
      ),
      [],
    );
  });

  it('names each link outside the repository, missing file, missing heading and escape, with its line', () => {
    assert.deepEqual(
      problems(
        [
          '[web](https://example.com) [mail](mailto:a@example.com)',
          '[rooted](/README.md) [protocol-relative](//example.com/x) [command](command:convai.addConnection)',
          '[missing](nothing.md) ![missing picture](../media/none.png)',
          '[no heading](../README.md#nowhere) [no local heading](#nowhere)',
          '[escape](../../outside.md) [empty]()',
          '<vscode:extension/convai.convai-config> <a href="file:///etc/passwd">x</a>',
          '[spec]: ../../shared/spec/service-api.md',
        ].join('\n'),
      ),
      [
        '1 https://example.com: a link outside the repository',
        '1 mailto:a@example.com: a link outside the repository',
        '2 /README.md: a link outside the repository',
        '2 //example.com/x: a link outside the repository',
        '2 command:convai.addConnection: a link outside the repository',
        '3 nothing.md: no such file or folder: docs/nothing.md',
        '3 ../media/none.png: no such file or folder: media/none.png',
        '4 ../README.md#nowhere: no heading "#nowhere" in README.md',
        '4 #nowhere: no heading "#nowhere" in docs/page.md',
        '5 ../../outside.md: a path that leaves the repository',
        '5 : an empty link',
        '6 vscode:extension/convai.convai-config: a link outside the repository',
        '6 file:///etc/passwd: a link outside the repository',
        '7 ../../shared/spec/service-api.md: a path that leaves the repository',
      ],
    );
  });

  it('checks README.md and every Markdown file below docs/', () => {
    write('docs/deeper/more.md', '# More\n');
    write('docs/notes.txt', 'not Markdown');
    assert.deepEqual(documentationFiles(root), ['README.md', 'docs/deeper/more.md', 'docs/other.md']);
  });
});
