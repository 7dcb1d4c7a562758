// Open Variant Lab as a user meets it: a suite with variants open in the editor, the lab from the palette, the table
// of cases by versions with each column's rate and its difference from the base; a cell opens its run, Apply writes
// the variant into the prompt's document unsaved. Pictured in a light and a dark theme for the README, and narrow.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { saveScreenshot } from '../harness/screenshots';
import { uiConnectionName } from '../harness/ui-workbench';
import { openFile } from './open-file';
import { useTheme } from './themes';
import { openConvAiView, runCommand, treeRow } from './tree-view';
import { workbench } from './workbench';

const SUITE = 'order-triage-variants.prompttest.json';
const TEXTS = 'order-triage-variants';
const WORDS = 'Your order is on its way.';
const REPEAT = 5;

/** The lab's page: VS Code puts a webview in an iframe holding another; only this extension's. */
function labPage(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview.ready[src*="extensionId=convai.convai-config"]')
    .frameLocator('iframe#active-frame');
}

describe('the variant lab', () => {
  before(() => {
    const { workspace } = workbench();
    fs.mkdirSync(path.join(workspace, TEXTS), { recursive: true });
    fs.writeFileSync(path.join(workspace, TEXTS, 'status-first.md'), `Say exactly: ${WORDS}\n`);
    fs.writeFileSync(
      path.join(workspace, SUITE),
      JSON.stringify(
        {
          target: { connection: uiConnectionName, tenantId: 1 },
          prompt: 'Order Triage',
          variants: [
            { name: 'status first', file: `${TEXTS}/status-first.md`, field: 'system' },
            { name: 'described', fields: { description: 'Triage, described for the team.' } },
          ],
          cases: [
            {
              name: 'gives the status',
              prompt_text: 'Where is order A-1?',
              repeat: REPEAT,
              expect: { response: { contains: 'on its way' } },
            },
            {
              name: 'answers briefly',
              prompt_text: 'Hi',
              repeat: REPEAT,
              expect: { response: { maxLength: 200 } },
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
    fs.rmSync(path.join(workspace, SUITE), { force: true });
    fs.rmSync(path.join(workspace, TEXTS), { recursive: true, force: true });
  });

  it("opens from the palette on the suite: each case's rate, interval and latency on the base and each variant", async () => {
    const { page, workspace } = workbench();
    // The connection the suite names, which the workbench adds as it starts.
    await treeRow(await openConvAiView(page), uiConnectionName, 1).waitFor();
    await openFile(page, path.join(workspace, SUITE));
    await runCommand(page, 'ConvAI: Open Variant Lab');
    const lab = labPage(page);
    await lab.locator('table#matrix:not([hidden])').waitFor();
    assert.equal(await lab.locator('button.cell').count(), 6, 'two cases on three versions');
    const heads = await lab.locator('th.column').allInnerTexts();
    assert.match(heads[0] ?? '', /^base\s+some failed\s+5\/10 passed \(50%\)/);
    assert.match(heads[1] ?? '', /^status first\s+all passed\s+10\/10 passed \(100%\)[\s\S]*better, p = 0\.03/);
    assert.match(heads[2] ?? '', /^described\s+some failed\s+5\/10 passed \(50%\)[\s\S]*same, p = 1/);
    const cell = lab.getByRole('button', { name: /^gives the status on base: fail, 0\/5 passed/ });
    assert.match(await cell.innerText(), /fail\s+0\/5 passed \(0%\)\s+95% interval 0–44%\s+p50 \d+ ms · p95 \d+ ms/);
    await lab.locator('h2', { hasText: 'How to read it' }).waitFor();
    // The pointer off the table, so no cell shows its hover.
    await lab.locator('h1').hover();
    await saveScreenshot(page, 'variant-lab-light', { readme: true });
    const was = await useTheme(page, 'Dark Modern');
    try {
      await saveScreenshot(page, 'variant-lab-dark', { readme: true });
    } finally {
      await useTheme(page, was);
    }
  });

  it('scrolls the table sideways in a narrow window, the cases staying in view', async () => {
    const { page } = workbench();
    const size = page.viewportSize();
    assert.ok(size);
    await page.setViewportSize({ width: 720, height: size.height });
    try {
      const lab = labPage(page);
      const scroll = lab.locator('#scroll');
      // The page lays itself out again once its frame has narrowed: looked at each turn of its event loop until it has.
      await scroll.evaluate(
        (node) =>
          new Promise<void>((resolve) => {
            const narrowed = (): void =>
              node.scrollWidth > node.clientWidth ? resolve() : void setTimeout(narrowed, 0);
            narrowed();
          }),
      );
      await scroll.evaluate((node) => node.scrollTo({ left: node.scrollWidth }));
      const caseName = lab.locator('th.case', { hasText: 'gives the status' });
      const [scrollBox, nameBox] = [await scroll.boundingBox(), await caseName.boundingBox()];
      assert.ok(scrollBox && nameBox && Math.abs(nameBox.x - scrollBox.x) < 4, 'the case column sticks to the left');
      await saveScreenshot(page, 'variant-lab-narrow');
    } finally {
      await page.setViewportSize(size);
    }
  });

  it("opens a cell's run, and Apply writes the variant into the prompt's document, unsaved", async () => {
    const { page } = workbench();
    const lab = labPage(page);
    await lab.getByRole('button', { name: /^gives the status on base: fail/ }).press('Enter');
    await page.locator('.tabs-container .tab', { hasText: 'Run of gives the status on base.txt' }).waitFor();
    await page.locator('.tabs-container .tab', { hasText: 'Variant Lab' }).click();
    await lab.getByRole('button', { name: 'Apply status first' }).click();
    const prompt = page.locator('.tabs-container .tab.active.dirty');
    await prompt.waitFor();
    assert.doesNotMatch((await prompt.getAttribute('aria-label')) ?? '', /prompttest/);
    // Nothing is saved: the edit is reverted here, as a user who tried it and did not want it would.
    await runCommand(page, 'File: Revert File');
    await page.locator('.tabs-container .tab.dirty').waitFor({ state: 'detached' });
  });
});
