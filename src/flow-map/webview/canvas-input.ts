/**
 * The canvas under the pointer and the keyboard: drag to pan, the wheel and + - 0 to zoom and fit, the arrows to pan,
 * a click or Enter on a node to open it, and a node reached by Tab brought into view.
 */
import { ZOOM, type Viewport } from './viewport';

const PAN_STEP = 60;
const PAN: Readonly<Record<string, [number, number]>> = {
  ArrowLeft: [PAN_STEP, 0],
  ArrowRight: [-PAN_STEP, 0],
  ArrowUp: [0, PAN_STEP],
  ArrowDown: [0, -PAN_STEP],
};

/** The node a target lies in, when it is a resource (one a dangling reference names opens nothing). */
function nodeOf(target: EventTarget | null): SVGGElement | undefined {
  const group = target instanceof Element ? target.closest('g.node[data-id]') : null;
  return group instanceof SVGGElement && group.hasAttribute('tabindex') ? group : undefined;
}

export function followInput(canvas: HTMLElement, viewport: Viewport, open: (node: string) => void): void {
  let drag: { x: number; y: number; moved: boolean } | undefined;
  canvas.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX, y: event.clientY, moved: false };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const [dx, dy] = [event.clientX - drag.x, event.clientY - drag.y];
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    Object.assign(drag, { x: event.clientX, y: event.clientY, moved: true });
    viewport.panBy(dx, dy);
  });
  canvas.addEventListener('pointerup', (event) => {
    const wasDrag = drag?.moved === true;
    drag = undefined;
    canvas.releasePointerCapture(event.pointerId);
    // Pointer capture retargets the release to the canvas: the node is the one under the pointer.
    const node = wasDrag ? undefined : nodeOf(document.elementFromPoint(event.clientX, event.clientY));
    if (node?.dataset.id !== undefined) open(node.dataset.id);
  });
  canvas.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const box = canvas.getBoundingClientRect();
      viewport.zoomBy(Math.exp(-event.deltaY * 0.002), { x: event.clientX - box.left, y: event.clientY - box.top });
    },
    { passive: false },
  );
  canvas.addEventListener('keydown', (event) => {
    const move = PAN[event.key];
    const node = nodeOf(event.target);
    if (move) viewport.panBy(move[0], move[1]);
    else if (event.key === '+' || event.key === '=') viewport.zoomBy(ZOOM.step);
    else if (event.key === '-') viewport.zoomBy(1 / ZOOM.step);
    else if (event.key === '0') viewport.fit();
    else if ((event.key === 'Enter' || event.key === ' ') && node?.dataset.id !== undefined) open(node.dataset.id);
    else return;
    event.preventDefault();
  });
  canvas.addEventListener('focusin', (event) => {
    const id = nodeOf(event.target)?.dataset.id;
    if (id !== undefined) viewport.reveal(id);
  });
}
