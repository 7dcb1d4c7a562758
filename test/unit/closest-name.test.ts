import * as assert from 'node:assert/strict';
import { closest } from '../../src/core/closest-name';

describe('closest name', () => {
  const fields = ['temperature', 'max_tokens', 'model', 'name'];

  it('suggests the known name within two edits, a swap of neighbours counting as one', () => {
    assert.equal(closest('temparature', fields), 'temperature');
    assert.equal(closest('max_tokesn', fields), 'max_tokens');
    assert.equal(closest('modle', fields), 'model');
  });

  it('suggests nothing for a short name or one too far from every known name', () => {
    assert.equal(closest('x', fields), undefined);
    assert.equal(closest('nmae', fields), 'name', "one swap is within a four-letter name's allowance");
    assert.equal(closest('voice', fields), undefined);
  });
});
