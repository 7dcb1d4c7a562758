// Expanding a tree node of 5,000 resources, as a user does it: a click on the twistie of a tenant's AI Prompts, in
// the ConvAI view and in the floor's view, until the first prompt rows are in the page and a frame has passed.
// Timed inside the page (the click's mousedown to the frame after the rows appear), so Playwright's own round trips
// stay out. Each tenant's AI Prompts is expanded for the first time in its window, so VS Code asks the provider
// for its children every time; the tenant is expanded first, untimed, and its list has arrived (the count shows).
import type { Locator, Page } from 'playwright-core';
import { collapse, expand, openTreeView, treeRow } from '../ui/tree-view';
import { benchConnection, type Pair } from './protocol';

type Side = keyof Pair;

const trees: Record<Side, { container: string; view: string; tenantLevel: number }> = {
  candidate: { container: 'ConvAI', view: 'Resources', tenantLevel: 2 },
  floor: { container: 'Bench Floor', view: 'Floor', tenantLevel: 1 },
};

const expansionTimeoutMs = 30_000;

/**
 * In the page (a string: the tests compile without the DOM's types): waits for the next mousedown, then for a row
 * at `level` in the tree, and leaves the milliseconds between them, one frame later, in a promise on `window`.
 */
function armExpansionTimer(viewName: string, level: number): string {
  return `(() => {
    const tree = document.querySelector('.monaco-list[role="tree"][aria-label="${viewName}"]');
    if (!tree) throw new Error('no tree ${viewName}');
    const row = () => tree.querySelector('.monaco-list-row[aria-level="${level}"]');
    if (row()) throw new Error('rows at level ${level} show in ${viewName} before the expansion');
    window.convaiBenchExpansion = new Promise((resolve, reject) => {
      let start;
      const timer = setTimeout(() => reject(new Error('no rows at level ${level} in ${viewName} within ${expansionTimeoutMs} ms')), ${expansionTimeoutMs});
      window.addEventListener('mousedown', (event) => { start = event.timeStamp; }, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (start === undefined || !row()) return;
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => resolve(performance.now() - start));
      });
      observer.observe(tree, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-level'] });
    });
  })()`;
}

async function timedExpansion(page: Page, side: Side, tenantName: string): Promise<number> {
  const { container, view, tenantLevel } = trees[side];
  const tree = await openTreeView(page, container, view);
  const tenant: Locator = treeRow(tree, tenantName, tenantLevel);
  await expand(tenant);
  const prompts = treeRow(tree, 'AI Prompts', tenantLevel + 1);
  await prompts.locator('.label-description').filter({ hasText: /^\d+$/ }).waitFor();
  await page.evaluate(armExpansionTimer(view, tenantLevel + 2));
  await prompts.locator('.monaco-tl-twistie').click();
  const ms: unknown = await page.evaluate('window.convaiBenchExpansion');
  if (typeof ms !== 'number') throw new Error(`the expansion timer in the page gave ${String(ms)}`);
  // Out of the way of the next tenant's rows.
  await collapse(tenant);
  return ms;
}

/** One pair per tenant, candidate and floor taking turns to go first. */
export async function measureTreeExpansions(page: Page, tenantNames: readonly string[]): Promise<Pair[]> {
  await expand(treeRow(await openTreeView(page, trees.candidate.container, trees.candidate.view), benchConnection, 1));
  const pairs: Pair[] = [];
  for (const [index, name] of tenantNames.entries()) {
    const order: Side[] = index % 2 === 0 ? ['candidate', 'floor'] : ['floor', 'candidate'];
    const pair: Pair = { candidate: 0, floor: 0 };
    for (const side of order) pair[side] = await timedExpansion(page, side, name);
    pairs.push(pair);
  }
  return pairs;
}
