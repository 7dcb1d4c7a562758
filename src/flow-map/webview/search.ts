/** Finding nodes by name: every match marked as the user types, Enter centring each in turn. */
import type { Viewport } from './viewport';

export class NodeSearch {
  private matchAt = -1;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly status: HTMLElement,
    private readonly viewport: Viewport,
  ) {
    input.addEventListener('input', () => this.highlight());
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      this.next();
    });
  }

  /** Marks the matches in the drawing on show, as after a redraw. */
  highlight(): void {
    const found = new Set(this.matches());
    for (const [id, group] of this.viewport.drawing?.nodes ?? []) {
      group.classList.toggle('match', found.has(id));
      group.classList.remove('current');
    }
    this.matchAt = -1;
    const words = found.size === 1 ? '1 match' : `${found.size} matches`;
    this.status.textContent = this.input.value.trim() === '' ? '' : words;
  }

  private matches(): string[] {
    const query = this.input.value.trim().toLowerCase();
    const { drawing } = this.viewport;
    if (!drawing || query === '') return [];
    return drawing.view.nodes.filter((n) => n.name.toLowerCase().includes(query)).map((n) => n.id);
  }

  private next(): void {
    const found = this.matches();
    if (found.length === 0) return;
    this.matchAt = (this.matchAt + 1) % found.length;
    const id = found[this.matchAt] as string;
    const nodes = this.viewport.drawing?.nodes;
    for (const group of nodes?.values() ?? []) group.classList.remove('current');
    nodes?.get(id)?.classList.add('current');
    this.viewport.centre(id);
    this.status.textContent = `${this.matchAt + 1} of ${found.length}`;
  }
}
