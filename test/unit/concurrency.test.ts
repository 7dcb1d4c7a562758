import * as assert from 'node:assert/strict';
import { handledInTurn } from '../../src/core/concurrency';

describe('concurrency: answers handled in turn', () => {
  it("starts the next fetch before an answer is handled, and keeps the items' order", async () => {
    const events: string[] = [];
    const results = await handledInTurn(
      ['a', 'b', 'c'],
      1,
      async (item) => {
        events.push(`fetch ${item}`);
        return item.toUpperCase();
      },
      (item, fetched) => {
        events.push(`handle ${item}`);
        return `${item}=${fetched}`;
      },
    );
    assert.deepEqual(results, ['a=A', 'b=B', 'c=C']);
    assert.ok(events.indexOf('fetch b') < events.indexOf('handle a'), events.join(', '));
    assert.deepEqual(
      events.filter((event) => event.startsWith('handle')),
      ['handle a', 'handle b', 'handle c'],
      'one after another, in order',
    );
  });

  it('never has more than the limit of fetches under way', async () => {
    let underWay = 0;
    let most = 0;
    await handledInTurn(
      Array.from({ length: 20 }, (_, index) => index),
      3,
      async (item) => {
        most = Math.max(most, ++underWay);
        await new Promise((resolve) => setImmediate(resolve));
        underWay--;
        return item;
      },
      (item) => item,
    );
    assert.equal(most, 3);
  });

  it('starts no fetch and handles nothing after a failure, and throws it', async () => {
    const fetched: number[] = [];
    const handled: number[] = [];
    let failedAt = Infinity;
    await assert.rejects(
      handledInTurn(
        [1, 2, 3, 4, 5],
        1,
        async (item) => {
          fetched.push(item);
          await new Promise((resolve) => setImmediate(resolve));
          if (item === 3) {
            failedAt = handled.length;
            throw new Error('lost');
          }
          return item;
        },
        (item) => handled.push(item),
      ),
      /lost/,
    );
    assert.deepEqual(fetched, [1, 2, 3]);
    assert.equal(handled.length, failedAt, 'what was handled was handled before the failure');
    assert.deepEqual(handled, [1, 2].slice(0, failedAt));
  });

  it('stops fetching when handling an answer fails, and throws that failure', async () => {
    const fetched: number[] = [];
    await assert.rejects(
      handledInTurn(
        [1, 2, 3, 4, 5, 6, 7, 8],
        1,
        async (item) => {
          fetched.push(item);
          await new Promise((resolve) => setImmediate(resolve));
          return item;
        },
        (item) => {
          if (item === 2) throw new Error('cannot write');
        },
      ),
      /cannot write/,
    );
    assert.ok(fetched.length < 8, `fetched ${fetched.join(', ')}`);
  });
});
