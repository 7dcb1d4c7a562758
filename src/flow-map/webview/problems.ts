/** The map's problems listed beside it, each a button that brings its node into view. */
import type { MapView } from '../messages';
import type { Viewport } from './viewport';

export function listProblems(list: HTMLUListElement, view: MapView, viewport: Viewport): void {
  list.replaceChildren();
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
}
