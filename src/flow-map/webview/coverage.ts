/**
 * What the workspace's suites reached, drawn over the map: each tested node
 * marked by its state, each hand-over a conversation took thickened. Classes
 * only; the toggle shows them by a class on the canvas, so a redraw keeps
 * the user's choice.
 */
import type { MapView } from '../messages';

const WORDS = { passed: 'tested, passed', failed: 'tested, failed', untested: 'not tested' } as const;

export function markCoverage(
  root: SVGSVGElement,
  nodes: ReadonlyMap<string, SVGGElement>,
  coverage: MapView['coverage'],
): void {
  if (!coverage) return;
  for (const [id, group] of nodes) {
    const state = coverage.nodes[id];
    if (state === undefined) continue;
    group.classList.add(`cov-${state}`);
    // Said beside the name, not in it: the name is what people search and click by; after a role, where it has one.
    const role = group.getAttribute('aria-description');
    group.setAttribute('aria-description', role ? `${role}; ${WORDS[state]}` : WORDS[state]);
  }
  const taken = new Set(coverage.edges);
  root
    .querySelectorAll<SVGGElement>('g.edge[data-edge]')
    .forEach((edge) => edge.classList.toggle('taken', taken.has(edge.dataset.edge ?? '')));
}

/** The toggle is offered only when suites of this tenant ran; pressed, it shows the marks. */
export function coverageToggle(
  button: HTMLButtonElement,
  legend: HTMLElement,
  canvas: HTMLElement,
): (view: MapView) => void {
  const show = (on: boolean): void => {
    button.setAttribute('aria-pressed', String(on));
    canvas.classList.toggle('show-coverage', on);
    legend.hidden = !on;
  };
  button.addEventListener('click', () => show(button.getAttribute('aria-pressed') !== 'true'));
  return (view) => {
    button.hidden = view.coverage === undefined;
    if (view.coverage === undefined) show(false);
  };
}
