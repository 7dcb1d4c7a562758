import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const src = path.join(__dirname, '..', '..', '..', 'src');
/** A file a reader takes in whole: past this, it holds more than one thing and is split by what it holds. */
const MOST_LINES = 300;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(at);
    return entry.name.endsWith('.ts') ? [at] : [];
  });
}

describe('the files of src/', () => {
  it(`are at most ${MOST_LINES} lines each, as Prettier writes them`, () => {
    const long = sourceFiles(src)
      .map((file) => ({ file: path.relative(src, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MOST_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
