/** The legend of the parts the tenant's tests give prompts on this map (a test prompt, an opener), in their own words. */
import type { MapView } from '../messages';

export function showRoles(legend: HTMLElement, view: MapView): void {
  const roles = new Map(view.nodes.flatMap((n) => (n.role ? [[n.role.name, n.role.text] as const] : [])));
  legend.replaceChildren(
    ...[...roles].map(([name, text]) => {
      const key = document.createElement('span');
      key.className = `role-${name}`;
      key.textContent = text;
      return key;
    }),
  );
  legend.hidden = roles.size === 0;
}
