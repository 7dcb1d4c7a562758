/**
 * The map's problems listed beside it (under it in a narrow editor), each a button that brings its node into view.
 * The list folds under its heading, which counts them; it starts folded where the page is short, so the map keeps
 * the height, until the user opens it.
 */
import type { MapView } from '../messages';
import type { Viewport } from './viewport';

/** Where the page is this short or shorter, the list starts folded. */
const SHORT = '(max-height: 640px)';

export function problemsList(
  list: HTMLUListElement,
  toggle: HTMLButtonElement,
  count: HTMLElement,
): (view: MapView, viewport: Viewport) => void {
  let chosen = false;
  const open = (on: boolean): void => {
    toggle.setAttribute('aria-expanded', String(on));
    list.hidden = !on;
  };
  toggle.addEventListener('click', () => {
    chosen = true;
    open(toggle.getAttribute('aria-expanded') !== 'true');
  });
  open(!window.matchMedia(SHORT).matches);
  window.matchMedia(SHORT).addEventListener('change', (event) => {
    if (!chosen) open(!event.matches);
  });
  return (view, viewport) => {
    list.replaceChildren();
    count.textContent = String(view.problems.length);
    if (view.problems.length === 0) {
      const item = document.createElement('li');
      item.textContent = 'No problems: every reference leads to a resource the tenant holds.';
      list.appendChild(item);
      return;
    }
    for (const problem of view.problems) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'problem';
      button.textContent = problem.text;
      button.addEventListener('click', () => {
        viewport.centre(problem.node);
        viewport.drawing?.nodes.get(problem.node)?.focus();
      });
      item.appendChild(button);
      list.appendChild(item);
    }
  };
}
