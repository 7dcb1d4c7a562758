/** Anything that holds a resource until it is disposed: a VS Code Disposable, a watcher, a timer's owner. */
export interface Disposable {
  dispose(): unknown;
}

/**
 * Disposables owned together and disposed once, in the order they were added (VS Code's own DisposableStore
 * pattern). One added after the store was disposed is disposed at once rather than leaked.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  push(...items: Disposable[]): void {
    for (const item of items) this.add(item);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0)) item.dispose();
  }
}
