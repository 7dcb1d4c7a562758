import * as assert from 'node:assert/strict';
import { parseBenchArgs } from '../bench/options';

describe('bench options', () => {
  it("runs every group by default, in the table's order", () => {
    assert.deepEqual(parseBenchArgs([]), { help: false, groups: ['extension', 'folders', 'map', 'suites'] });
    assert.deepEqual(
      parseBenchArgs(['--only', 'suites', '--only', 'map', '--only', 'folders', '--only', 'extension']),
      { help: false, groups: ['extension', 'folders', 'map', 'suites'] },
    );
  });

  it('runs one group alone with --only', () => {
    assert.deepEqual(parseBenchArgs(['--only', 'folders']), { help: false, groups: ['folders'] });
  });

  it('refuses an unknown group or option instead of running everything', () => {
    assert.throws(
      () => parseBenchArgs(['--only', 'folder']),
      /--only folder: no such group; use one of extension, folders, map, suites/,
    );
    assert.throws(() => parseBenchArgs(['--fast']), /Unknown option/);
  });

  it('asks for help with --help or -h', () => {
    assert.deepEqual(parseBenchArgs(['-h']), { help: true });
  });
});
