/**
 * The tree's redraws, held while VS Code loads children and then sent together as one change event.
 *
 * VS Code registers the children a load returns under the parent item it held when the load began. A redraw of that
 * parent, or of one of its ancestors, while the load is in flight replaces the item: the children land under an item
 * nobody holds any more, the parent's next load cannot clear them, and refuses each as "Element with id … is already
 * registered", so the parent shows nothing until the window is reloaded. The redraws a load itself brings about (a
 * connection's state, learnt as its tenants load) and those asked for meanwhile (a Refresh clicked while they load)
 * therefore wait until no load is in flight. One event for all of them is taken by VS Code at once, where separate
 * events are spread over its debounce and could land in the loads they start.
 */
export class Redraws<T> {
  private loads = 0;
  private readonly held = new Set<T>();
  private flush: ReturnType<typeof setTimeout> | undefined;

  /** `fire` tells VS Code: these nodes changed, or (undefined) everything did. */
  constructor(private readonly fire: (nodes: T[] | undefined) => void) {}

  /** Redraws `node` once no load is in flight; everything at once (VS Code then drops the loads in flight). */
  redraw(node: T | undefined): void {
    if (node === undefined) {
      this.held.clear();
      this.fire(undefined);
      return;
    }
    this.held.add(node);
    this.schedule();
  }

  /** Runs a load of children that VS Code asked for; redraws wait for its end. */
  async loading<R>(load: () => Promise<R>): Promise<R> {
    this.loads++;
    try {
      return await load();
    } finally {
      this.loads--;
      this.schedule();
    }
  }

  dispose(): void {
    clearTimeout(this.flush);
    this.held.clear();
  }

  private schedule(): void {
    if (this.loads > 0 || this.held.size === 0 || this.flush !== undefined) return;
    // A task later, not a promise job: VS Code registers a load's children in the promise jobs after its answer.
    this.flush = setTimeout(() => {
      this.flush = undefined;
      // A load begun meanwhile sends them when it ends.
      if (this.loads > 0) return;
      const nodes = [...this.held];
      this.held.clear();
      this.fire(nodes);
    }, 0);
  }
}
