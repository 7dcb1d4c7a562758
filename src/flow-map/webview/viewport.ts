/**
 * The drawing on show in the page's canvas, panned and zoomed. A map that follows its source is drawn again after
 * each change, and keeps the user's pan and zoom. A fitted map stays fitted as the canvas changes size (the editor
 * narrowed, a split opened) until the user pans or zooms it.
 */
import type { Drawing } from './drawing';

/**
 * `fitted`: the least zoom Fit goes to, where a node's name (13 px) and an edge's label (12 px) still read at about
 * 9 px; a larger map is fitted to that and panned. The wheel and the buttons may zoom out further.
 */
export const ZOOM = { min: 0.05, max: 4, step: 1.25, fitted: 0.7 };
const MARGIN = 20;

export class Viewport {
  private drawn: Drawing | undefined;
  private readonly at = { x: 0, y: 0, k: 1 };
  /** The view is Fit's, and fits again when the canvas changes size. */
  private fitted = false;

  constructor(private readonly canvas: HTMLElement) {
    new ResizeObserver(() => {
      if (this.fitted) this.fit();
    }).observe(canvas);
  }

  get drawing(): Drawing | undefined {
    return this.drawn;
  }

  /** Shows `drawing` in place of the one on show: where that one was, or fitted and centred on the view's focus. */
  show(drawing: Drawing, keepView: boolean): void {
    const kept = keepView && this.drawn !== undefined;
    this.drawn?.svg.remove();
    this.drawn = drawing;
    // Placed before the drawing joins the page: fitting reads the canvas's size, which with the drawing in it would
    // make the browser lay out thousands of elements there and then, and again for the transform that follows.
    // A fitted map read again is fitted again: it may have grown.
    if (kept && !this.fitted) this.apply();
    else this.fit();
    const { focus } = drawing.view;
    if (focus !== undefined && !kept) {
      drawing.nodes.get(focus)?.classList.add('focus');
      this.centre(focus);
    }
    this.canvas.appendChild(drawing.svg);
  }

  clear(): void {
    this.drawn?.svg.remove();
    this.drawn = undefined;
  }

  panBy(dx: number, dy: number): void {
    this.fitted = false;
    this.at.x += dx;
    this.at.y += dy;
    this.apply();
  }

  zoomBy(factor: number, around = { x: this.canvas.clientWidth / 2, y: this.canvas.clientHeight / 2 }): void {
    const { at } = this;
    this.fitted = false;
    const k = Math.min(ZOOM.max, Math.max(ZOOM.min, at.k * factor));
    at.x = around.x - ((around.x - at.x) * k) / at.k;
    at.y = around.y - ((around.y - at.y) * k) / at.k;
    at.k = k;
    this.apply();
  }

  /** The whole map in the window, centred, at a zoom no less than `ZOOM.fitted`: a larger map shows from its top left. */
  fit(): void {
    const { drawn, canvas } = this;
    if (!drawn) return;
    const [width, height] = [canvas.clientWidth, canvas.clientHeight];
    // A canvas hidden (its tab in the back) has no size to fit to; it fits once it shows again.
    this.fitted = true;
    if (width === 0 || height === 0) return;
    const fits = Math.min(width / (drawn.width + 2 * MARGIN), height / (drawn.height + 2 * MARGIN));
    const k = Math.min(1, Math.max(ZOOM.fitted, fits));
    const placed = (room: number, size: number): number => Math.max(0, (room - size * k) / 2);
    Object.assign(this.at, { k, x: placed(width, drawn.width), y: placed(height, drawn.height) });
    this.apply();
  }

  /** Puts a node in the middle of the window, at a zoom where its name reads. */
  centre(id: string): void {
    const place = this.drawn?.placed.get(id);
    if (!place) return;
    const { at, canvas } = this;
    this.fitted = false;
    at.k = Math.max(at.k, 0.8);
    at.x = canvas.clientWidth / 2 - place.x * at.k;
    at.y = canvas.clientHeight / 2 - place.y * at.k;
    this.apply();
  }

  /** Centres a node that lies outside the window. */
  reveal(id: string): void {
    const place = this.drawn?.placed.get(id);
    if (!place) return;
    const { at, canvas } = this;
    const [x, y] = [at.x + place.x * at.k, at.y + place.y * at.k];
    if (x < 0 || y < 0 || x > canvas.clientWidth || y > canvas.clientHeight) this.centre(id);
  }

  private apply(): void {
    this.drawn?.viewport.setAttribute('transform', `translate(${this.at.x},${this.at.y}) scale(${this.at.k})`);
  }
}
