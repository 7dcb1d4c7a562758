import * as assert from 'node:assert/strict';
import { RecentEntries } from '../../src/core/recent-entries';

describe('recent entries', () => {
  it('forgets the least recently used entry beyond the limit', () => {
    const entries = new RecentEntries<string>(2, () => false);
    entries.set('a', 'A');
    entries.set('b', 'B');
    assert.equal(entries.get('a'), 'A');
    entries.set('c', 'C');
    assert.equal(entries.size, 2);
    assert.equal(entries.get('b'), undefined);
    assert.equal(entries.get('a'), 'A');
    assert.equal(entries.get('c'), 'C');
  });

  it('replaces a value without counting it twice', () => {
    const entries = new RecentEntries<string>(2, () => false);
    entries.set('a', 'A');
    entries.set('b', 'B');
    entries.set('a', 'A2');
    assert.equal(entries.size, 2);
    assert.equal(entries.get('a'), 'A2');
    assert.equal(entries.get('b'), 'B');
  });

  it('keeps entries in use, forgetting the oldest of the others', () => {
    const open = new Set(['a']);
    const entries = new RecentEntries<string>(2, (key) => open.has(key));
    entries.set('a', 'A');
    entries.set('b', 'B');
    entries.set('c', 'C');
    assert.equal(entries.get('a'), 'A');
    assert.equal(entries.get('b'), undefined);
    assert.equal(entries.get('c'), 'C');
  });

  it('stays above the limit rather than forget an entry in use', () => {
    const entries = new RecentEntries<string>(1, () => true);
    entries.set('a', 'A');
    entries.set('b', 'B');
    assert.equal(entries.size, 2);
    assert.equal(entries.get('a'), 'A');
  });

  it('never forgets the entry just set, even when it is the only one not in use', () => {
    const entries = new RecentEntries<string>(1, (key) => key === 'a');
    entries.set('a', 'A');
    entries.set('b', 'B');
    assert.equal(entries.get('b'), 'B');
    assert.equal(entries.get('a'), 'A');
  });
});
