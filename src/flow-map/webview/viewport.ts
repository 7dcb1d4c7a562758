/**
 * The drawing on show in the page's canvas, panned and zoomed. A map that follows its source is drawn again after
 * each change, and keeps the user's pan and zoom.
 */
import type { Drawing } from './drawing';

export const ZOOM = { min: 0.05, max: 4, step: 1.25 };

export class Viewport {
  private drawn: Drawing | undefined;
  private readonly at = { x: 0, y: 0, k: 1 };

  constructor(private readonly canvas: HTMLElement) {}

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
    if (kept) this.apply();
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
    this.at.x += dx;
    this.at.y += dy;
    this.apply();
  }

  zoomBy(factor: number, around = { x: this.canvas.clientWidth / 2, y: this.canvas.clientHeight / 2 }): void {
    const { at } = this;
    const k = Math.min(ZOOM.max, Math.max(ZOOM.min, at.k * factor));
    at.x = around.x - ((around.x - at.x) * k) / at.k;
    at.y = around.y - ((around.y - at.y) * k) / at.k;
    at.k = k;
    this.apply();
  }

  fit(): void {
    const { drawn, canvas } = this;
    if (!drawn) return;
    const fits = Math.min(canvas.clientWidth / (drawn.width + 40), canvas.clientHeight / (drawn.height + 40));
    const k = Math.min(1, Math.max(ZOOM.min, fits));
    Object.assign(this.at, {
      k,
      x: (canvas.clientWidth - drawn.width * k) / 2,
      y: (canvas.clientHeight - drawn.height * k) / 2,
    });
    this.apply();
  }

  /** Puts a node in the middle of the window, at a zoom where its name reads. */
  centre(id: string): void {
    const place = this.drawn?.placed.get(id);
    if (!place) return;
    const { at, canvas } = this;
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
