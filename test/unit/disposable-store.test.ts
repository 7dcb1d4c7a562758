import * as assert from 'node:assert/strict';
import { DisposableStore } from '../../src/core/disposable-store';

describe('DisposableStore', () => {
  const recorder = (): { log: string[]; item: (name: string) => { dispose(): void } } => {
    const log: string[] = [];
    return { log, item: (name) => ({ dispose: () => log.push(name) }) };
  };

  it('disposes what it holds once, in the order it was added', () => {
    const { log, item } = recorder();
    const store = new DisposableStore();
    store.add(item('watcher'));
    store.push(item('listener'), item('timer'));
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['watcher', 'listener', 'timer']);
  });

  it('hands back what it was given, and disposes at once what comes after its own disposal', () => {
    const { log, item } = recorder();
    const store = new DisposableStore();
    const kept = item('first');
    assert.equal(store.add(kept), kept);
    store.dispose();
    store.add(item('late'));
    assert.deepEqual(log, ['first', 'late']);
  });
});
