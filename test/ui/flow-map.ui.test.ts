// Show Flow Map as a user meets it: from a pulled folder's prompt file, the map of the folder, centred on that prompt,
// drawn in its panel with a problems list beside it; a click on a resource opens its file, and search finds a name.
// Pictured in a dark and a light theme for the README.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { FrameLocator, Page } from 'playwright-core';
import { kindById } from '../../src/core/resources';
import { repoRoot } from '../harness/paths';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { adminClient, samplePromptId } from './service';
import { openFile } from './open-file';
import { useTheme } from './themes';
import { expand, openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const FOLDER = 'acme-support';
const SUITE = 'flow-map-coverage.prompttest.json';
/** A simulated call of the tenant, never run here: its caller and its judge are test prompts on the map. */
const CALLS = 'flow-map-calls.prompttest.json';
const TEST_PROMPTS = ['Caller: Broken Kettle', 'Call Judge'];

/**
 * A returns flow, new in the folder and not yet pushed, so the pictured map holds 40 resources (the sample tenant's
 * 32 and these 8) with no change to the service the other tests share.
 */
const RETURNS: Record<string, Record<string, unknown>> = {
  'ai_prompts/returns-triage.json': {
    name: 'Returns Triage',
    prompt_type: 1,
    mode: 1,
    system: 'Ask what is being returned.',
  },
  'ai_prompts/returns-label.json': { name: 'Returns Label', prompt_type: 1, mode: 1, system: 'Send a return label.' },
  'ai_prompts/returns-refund.json': { name: 'Returns Refund', prompt_type: 1, mode: 1, system: 'Explain the refund.' },
  'intents/return-item.json': { name: 'return_item', display_name: 'Return an item', intent_type: 1 },
  'intents/refund-status.json': { name: 'refund_status', display_name: 'Refund status', intent_type: 1 },
  'ai_actions/returns-greeting.json': {
    name: 'Returns Greeting',
    action_type: 1,
    speak: 'Let us sort out your return.',
  },
  'datasources/returns-policy.json': { name: 'Returns Policy', type: 'text', url: 'https://example.test/returns' },
  'ai_functions/return-window.json': {
    name: 'return_window',
    description: 'Days left to return an order',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
  },
};

/** The map panel's page: VS Code puts a webview in an iframe holding another; only this extension's, not the workbench's own. */
function mapPage(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview.ready[src*="extensionId=convai.convai-config"]')
    .frameLocator('iframe#active-frame');
}

/**
 * Waits, frame by frame in the page, until every resource's box lies wholly inside the map's canvas: a resize fits
 * the map in a later frame. A map left clipped fails the test by its time-out.
 */
async function untilEveryNodeInView(map: FrameLocator): Promise<void> {
  await map.locator('#canvas').evaluate(
    (canvas) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          const view = canvas.getBoundingClientRect();
          const inside = [...canvas.querySelectorAll('g.node')].every((node) => {
            const box = node.getBoundingClientRect();
            return box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom;
          });
          if (inside) resolve();
          else canvas.ownerDocument.defaultView?.requestAnimationFrame(check);
        };
        check();
      }),
  );
}

describe('the flow map', () => {
  before(async () => {
    const { workspace, service } = workbench();
    const folder = path.join(workspace, FOLDER);
    fs.rmSync(folder, { recursive: true, force: true });
    // Not a synchronous child: the local service answers from this process.
    await promisify(execFile)(
      process.execPath,
      [path.join(repoRoot, 'dist', 'cli.js'), 'pull', '--url', service.url, '--tenant', '1', folder],
      {
        env: { ...process.env, CONVAI_TOKEN: service.adminToken },
      },
    );
    // A hand-over to a prompt the tenant does not hold: the map draws it dashed to a missing node and lists it.
    const file = path.join(folder, 'ai_prompts', 'order-triage.json');
    const prompt = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, `${JSON.stringify({ ...prompt, next_prompt_id: 987654 }, null, 2)}\n`);
    const idOf = (file: string): unknown =>
      (JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as { id: unknown }).id;
    const links: Record<string, Record<string, unknown>> = {
      'ai_prompts/returns-triage.json': {
        next_prompt_id: idOf('ai_prompts/order-resolution.json'),
        exit_prompt_id: idOf('ai_prompts/human-handoff.json'),
      },
      'intents/return-item.json': { ai_prompt_id: idOf('ai_prompts/order-triage.json') },
      'intents/refund-status.json': { ai_prompt_id: idOf('ai_prompts/order-resolution.json') },
    };
    for (const [name, resource] of Object.entries(RETURNS)) {
      fs.writeFileSync(path.join(folder, name), `${JSON.stringify({ ...resource, ...links[name] }, null, 2)}\n`);
    }
    fs.writeFileSync(
      path.join(workspace, CALLS),
      JSON.stringify(
        {
          target: { connection: uiConnectionName, tenantId: 1 },
          prompt: 'Order Triage',
          cases: [
            {
              name: 'annoyed caller learns the refund time',
              simulate: { caller: TEST_PROMPTS[0], persona: 'Your kettle broke.', opening: 'Hello?' },
              criteria: [
                { name: 'says the days', judge: TEST_PROMPTS[1], rubric: 'Says how many days a refund takes.' },
              ],
            },
          ],
        },
        null,
        2,
      ),
    );
    const client = adminClient();
    const [greeting, triage] = await Promise.all(
      ['Support Greeting', 'Order Triage'].map((name) => samplePromptId(client, 1, name)),
    );
    await client.close();
    // A conversation the greeting hands over to triage: both prompts passed, the hand-over taken.
    fs.writeFileSync(
      path.join(workspace, SUITE),
      JSON.stringify(
        {
          target: { connection: uiConnectionName, tenantId: 1 },
          prompt: 'Support Greeting',
          cases: [
            {
              name: 'greets, then triages',
              turns: [
                { prompt_text: 'Hi', expect: { prompt: greeting } },
                { prompt_text: 'Where is my order?', expect: { prompt: triage } },
              ],
            },
          ],
        },
        null,
        2,
      ),
    );
  });
  after(async () => {
    const { page, workspace } = workbench();
    await runCommand(page, 'View: Close All Editors');
    // Nothing of it stays for the next tests: the Source Control view lists a pulled folder's changes, the Testing view suites.
    fs.rmSync(path.join(workspace, FOLDER), { recursive: true, force: true });
    fs.rmSync(path.join(workspace, SUITE), { force: true });
    fs.rmSync(path.join(workspace, CALLS), { force: true });
  });

  it("draws the folder's map from a prompt's file, centred on that prompt, with its problems listed beside it", async () => {
    const { page } = workbench();
    await openFile(page, path.join(workbench().workspace, FOLDER, 'ai_prompts', 'order-triage.json'));
    await runCommand(page, 'ConvAI: Show Flow Map');
    const map = mapPage(page);
    await map.locator('svg#map g.node').first().waitFor();
    assert.equal(
      await map.locator('svg#map g.node[role="button"]').count(),
      40,
      "every resource of the folder is a node: the sample tenant's 32 and the 8 new ones",
    );
    assert.equal(
      await map.locator('g.node.focus').getAttribute('aria-label'),
      'Order Triage, AI Prompt',
      'the prompt the map was opened from is marked',
    );
    await map.locator('g.node.kind-missing', { hasText: 'ai_prompts/987654' }).waitFor();
    await map.locator('g.edge.dangling').first().waitFor();
    const problems = map.locator('#problems li');
    await problems
      .filter({ hasText: 'Order Triage: next_prompt_id names ai_prompts/987654, which the tenant does not hold' })
      .waitFor();
    assert.equal(
      await map.getByRole('heading', { name: 'Problems' }).count(),
      1,
      'the list has a heading a screen reader announces',
    );
    await map.locator('#fit').click();
    // The command's palette leaves the pointer over the tab, whose hover would cover the search box.
    await map.locator('#canvas').hover({ position: { x: 8, y: 8 } });
    await page.locator('.workbench-hover').waitFor({ state: 'detached' });
    await saveScreenshot(page, 'flow-map', { readme: true });
  });

  it("lists no test prompt among its problems: suites' callers and judges are marked as such, the prompt calls start on too", async () => {
    const { page } = workbench();
    const map = mapPage(page);
    const problems = await map.locator('#problems li').allTextContents();
    assert.ok(problems.length > 0, 'the map has problems to list');
    for (const name of [...TEST_PROMPTS, 'Support Greeting'])
      assert.deepEqual(
        problems.filter((p) => p.startsWith(`${name}:`)),
        [],
        `${name} is not called unreachable`,
      );
    assert.ok(
      problems.some((p) => p.startsWith('Returns Label: unreachable')),
      'a prompt neither the assistant nor a test uses still is',
    );
    assert.equal(await map.locator('#problems-count').innerText(), String(problems.length));
    for (const name of TEST_PROMPTS) {
      const node = map.locator(`g.node.role-test[aria-label="${name}, AI Prompt"]`);
      assert.equal(await node.getAttribute('aria-description'), 'test prompt: used by suites as a caller or judge');
      assert.match(
        (await node.locator('title').textContent()) ?? '',
        /test prompt: used by suites as a caller or judge$/,
      );
    }
    assert.deepEqual(
      await map.locator('g.node.role-opener').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))),
      ['Support Greeting, AI Prompt', 'Order Triage, AI Prompt'],
      "the prompts the suites' conversation and simulated call start on",
    );
    assert.deepEqual(await map.locator('#roles-legend > span').allInnerTexts(), [
      "opener: suites' calls start here",
      'test prompt: used by suites as a caller or judge',
    ]);
  });

  it('finds a resource by name, and opens its file on a click', async () => {
    const { page } = workbench();
    const map = mapPage(page);
    await map.locator('#search').fill('order status api');
    assert.equal(await map.locator('#search-status').innerText(), '1 match');
    await map.locator('#search').press('Enter');
    const found = map.locator('g.node.match.current');
    assert.equal(await found.getAttribute('aria-label'), 'Order Status API, Integration');
    await found.click();
    await page.locator('.tabs-container .tab.active[data-resource-name="order-status-api.json"]').waitFor();
  });

  it('colours what a suite reached once it ran, by the Coverage toggle', async () => {
    const { page } = workbench();
    await openFile(page, path.join(workbench().workspace, SUITE));
    await runCommand(page, 'ConvAI: Run Prompt Test Suite');
    await page.locator('.tabs-container .tab', { hasText: 'Flow Map: acme-support' }).click();
    const map = mapPage(page);
    const toggle = map.getByRole('button', { name: 'Coverage' });
    await toggle.waitFor();
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await map.locator('#coverage-legend').waitFor();
    const passed = map.locator('.show-coverage g.node.cov-passed');
    assert.deepEqual((await passed.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')))).sort(), [
      'Order Triage, AI Prompt',
      'Support Greeting, AI Prompt',
    ]);
    assert.equal(
      await passed.first().getAttribute('aria-description'),
      "opener: suites' calls start here; tested, passed",
      "an opener's role is said before its coverage",
    );
    assert.ok((await map.locator('g.node.cov-untested').count()) > 5, 'the other prompts are untested');
    assert.equal(await map.locator('.show-coverage g.edge.taken').count(), 1, 'the hand-over the conversation took');
  });

  it('reads in a dark theme as in a light one, coverage shown', async () => {
    const { page } = workbench();
    const map = mapPage(page);
    // The map alone in the editor area, at the width the first picture had.
    // Whichever of the two is still open (a preview tab gives way to the next file).
    for (const name of ['order-status-api.json', SUITE]) {
      const close = page.locator(`.tabs-container .tab[data-resource-name="${name}"] .codicon-close`);
      if ((await close.count()) > 0) await close.click();
    }
    await page.locator(`.tabs-container .tab[data-resource-name="${SUITE}"]`).waitFor({ state: 'detached' });
    await map.locator('#search').fill('');
    assert.equal(await map.locator('g.node.match, g.node.current').count(), 0, 'an emptied search marks nothing');
    const was = await useTheme(page, 'Dark Modern');
    try {
      await map.locator('#fit').click();
      await saveScreenshot(page, 'flow-map-dark', { readme: true });
    } finally {
      await useTheme(page, was);
    }
  });

  it('fits the map again when the editor narrows', async () => {
    const { page } = workbench();
    const map = mapPage(page);
    const was = page.viewportSize();
    // Room enough that the whole map fits at a zoom whose text reads, narrowed or not.
    await page.setViewportSize({ width: 2000, height: 1100 });
    try {
      await map.locator('#fit').click();
      await untilEveryNodeInView(map);
      await page.setViewportSize({ width: 1600, height: 1100 });
      await untilEveryNodeInView(map);
    } finally {
      if (was) await page.setViewportSize(was);
    }
  });

  for (const theme of [
    { name: 'Dark Modern', picture: 'flow-map-900x600-dark' },
    { name: 'Light Modern', picture: 'flow-map-900x600-light' },
  ])
    it(`reads at 900×600 in ${theme.name}: controls on one row, labels apart, problems folded`, async () => {
      const { page } = workbench();
      const map = mapPage(page);
      const was = page.viewportSize();
      const before = await useTheme(page, theme.name);
      await page.setViewportSize({ width: 900, height: 600 });
      // The map as a newcomer first meets it: no coverage drawn over it.
      const coverage = map.getByRole('button', { name: 'Coverage' });
      if ((await coverage.getAttribute('aria-pressed')) === 'true') await coverage.click();
      try {
        await map.locator('#problems-toggle[aria-expanded="false"]').waitFor({ state: 'attached' });
        assert.equal(await map.locator('#problems').isVisible(), false, 'a short page folds the problems');
        await map.locator('#fit').click();
        const [plus, minus] = await Promise.all(['#zoom-in', '#zoom-out'].map((id) => map.locator(id).boundingBox()));
        assert.ok(plus && minus && Math.abs(plus.y - minus.y) < 1, '+ and − sit on one row');
        const labels = await map.locator('g.edge .edge-label').evaluateAll((texts) =>
          texts.map((t) => {
            const box = t.getBoundingClientRect();
            return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, text: t.textContent ?? '' };
          }),
        );
        const overlapping = labels.flatMap((a, i) =>
          labels
            .slice(i + 1)
            .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            .map((b) => `${a.text} / ${b.text}`),
        );
        assert.deepEqual(overlapping, [], 'no two edge labels overlap');
        const shown = Math.min(...labels.map((l) => l.bottom - l.top));
        assert.ok(shown >= 9, `an edge label is ${shown.toFixed(1)} px high after Fit, which reads`);
        await map.locator('#canvas').hover({ position: { x: 8, y: 8 } });
        await saveScreenshot(page, theme.picture, { readme: true });
      } finally {
        if (was) await page.setViewportSize(was);
        await useTheme(page, before);
      }
    });

  it('follows the folder: a resource written into it is on the map, with its problem', async () => {
    const { page, workspace } = workbench();
    const map = mapPage(page);
    // What a pull or a colleague's branch would bring: an intent leading to a prompt the tenant does not hold.
    fs.writeFileSync(
      path.join(workspace, FOLDER, 'intents', 'lost-parcel.json'),
      `${JSON.stringify({ name: 'lost_parcel', display_name: 'Lost parcel', intent_type: 1, ai_prompt_id: 555555 }, null, 2)}\n`,
    );
    await map
      .locator('#problems li')
      .filter({ hasText: 'lost_parcel: ai_prompt_id names ai_prompts/555555, which the tenant does not hold' })
      .waitFor();
    assert.equal(await map.locator('svg#map g.node[role="button"]').count(), 41);
  });

  it("opens a live tenant's map from the tree, and follows Refresh", async () => {
    const { page } = workbench();
    const client = adminClient();
    const triage = await samplePromptId(client, 1, 'Order Triage');
    const was = (await client.get(kindById('prompt'), triage, 1)).next_prompt_id ?? null;
    try {
      const tree = await openConvAiView(page);
      const connection = treeRow(tree, uiConnectionName, 1);
      if ((await connection.getAttribute('aria-expanded')) !== 'true') await expand(connection);
      const tenant = treeRow(tree, 'Acme Support', 2);
      await tenant.click({ button: 'right' });
      // VS Code's menus act on the focused item; the keyboard is the dependable way to choose one.
      await page.locator('.context-view .monaco-menu .action-label', { hasText: 'Show Flow Map' }).hover();
      await page.keyboard.press('Enter');
      const map = mapPage(page);
      await map.locator('h1', { hasText: `Flow Map: Acme Support (${uiConnectionName})` }).waitFor();
      await map.locator('svg#map g.node').first().waitFor();
      assert.equal(await map.locator('#problems li', { hasText: 'ai_prompts/424242' }).count(), 0);
      // A colleague's change on the service, which this VS Code learns of by Refresh.
      await client.update(kindById('prompt'), triage, { next_prompt_id: 424242 }, 1);
      await runCommand(page, 'ConvAI: Refresh');
      await map
        .locator('#problems li')
        .filter({ hasText: 'Order Triage: next_prompt_id names ai_prompts/424242, which the tenant does not hold' })
        .waitFor();
    } finally {
      await client.update(kindById('prompt'), triage, { next_prompt_id: was }, 1);
      await client.close();
    }
  });
});
