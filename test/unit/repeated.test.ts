import * as assert from 'node:assert/strict';
import { repeatedBy } from '../../src/core/repeated';

describe('repeated items', () => {
  it('groups items that share a key, each group in the order met, groups by their first member', () => {
    const files = ['b.json', 'A.json', 'c.json', 'a.json', 'B.json', 'a.JSON'];
    assert.deepEqual(
      repeatedBy(files, (f) => f.toLowerCase()),
      [
        ['b.json', 'B.json'],
        ['A.json', 'a.json', 'a.JSON'],
      ],
    );
  });

  it('puts items without a key in no group, and finds none among unique keys', () => {
    assert.deepEqual(
      repeatedBy(['x', '', 'y', ''], (s) => s || undefined),
      [],
    );
    assert.deepEqual(
      repeatedBy([], (s: string) => s),
      [],
    );
  });
});
