import * as assert from 'node:assert/strict';
import { Debouncer } from '../../src/core/debounce';

/** Resolves when `work` has run, with how many times it ran by then. */
function counting(): { work: () => void; ran: () => number; done: Promise<void> } {
  let count = 0;
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolve = r));
  return {
    work: () => {
      count++;
      resolve();
    },
    ran: () => count,
    done,
  };
}

describe('the debouncer', () => {
  it('runs a burst of schedules of a key once, the last work given', async () => {
    const debouncer = new Debouncer(5);
    const first = counting();
    const last = counting();
    debouncer.schedule('a', first.work);
    debouncer.schedule('a', first.work);
    debouncer.schedule('a', last.work);
    assert.equal(debouncer.isPending('a'), true);
    await last.done;
    assert.equal(last.ran(), 1);
    assert.equal(first.ran(), 0, 'the superseded work never runs');
    assert.equal(debouncer.isPending('a'), false);
  });

  it('keeps keys apart, and cancels one without the other', async () => {
    const debouncer = new Debouncer(5);
    const a = counting();
    const b = counting();
    debouncer.schedule('a', a.work);
    debouncer.schedule('b', b.work);
    debouncer.cancel('a');
    assert.equal(debouncer.isPending('a'), false);
    await b.done;
    assert.equal(a.ran(), 0);
  });

  it('runs nothing after it is disposed', () => {
    const debouncer = new Debouncer(5);
    debouncer.schedule('a', () => assert.fail('ran after dispose'));
    debouncer.dispose();
    assert.equal(debouncer.isPending('a'), false);
  });
});
