import * as assert from 'node:assert/strict';
import { withSuffix } from '../../src/core/file-names';

describe('file names with a compound suffix', () => {
  const suffix = '.apirequest.json';
  it('adds the suffix once, whatever was typed', () => {
    assert.equal(withSuffix('order-status', suffix), 'order-status.apirequest.json');
    assert.equal(withSuffix('order-status.json', suffix), 'order-status.apirequest.json');
    assert.equal(withSuffix('order-status.apirequest.json', suffix), 'order-status.apirequest.json');
    assert.equal(withSuffix('order-status.apirequest.json.apirequest.json', suffix), 'order-status.apirequest.json');
    assert.equal(withSuffix('v1.2-status', suffix), 'v1.2-status.apirequest.json');
  });
});
