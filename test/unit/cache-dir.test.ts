import * as assert from 'node:assert/strict';
import path from 'node:path';
import { userCacheDir } from '../../src/core/cache-dir';

describe('the cache folder', () => {
  it("is CONVAI_CACHE_DIR when set, else convai-config in the user's cache folder", () => {
    assert.equal(userCacheDir({ CONVAI_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }), '/c');
    const linux = process.platform === 'linux';
    if (linux) assert.equal(userCacheDir({ XDG_CACHE_HOME: '/x' }), path.join('/x', 'convai-config'));
  });
});
