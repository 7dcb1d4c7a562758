// The package as a user gets it: `npm run package`'s .vsix installed into code-server (no development path), then the
// first minutes of use: the view, the tree against the local service, a prompt opened, edited and saved, a prompt test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { request } from 'undici';
import type { ServiceClient } from '../../src/core/client';
import { formatDocument } from '../../src/core/json-document';
import { kindById } from '../../src/core/resources';
import { uiConnectionName } from '../harness/ui-workbench';
import { answerTestPrompt, resultsPanel } from '../ui/results-panel';
import { adminClient, samplePromptId } from '../ui/service';
import { expand, openConvAiView, treeRow } from '../ui/tree-view';
import { workbench } from '../ui/workbench';

/** The package's own files that a manifest names: every string value that is a path into one of its folders. */
function packagedPaths(value: unknown): string[] {
  if (typeof value === 'string') {
    const file = value.replace(/^\.\//, '');
    return /^(dist|media|schemas|syntaxes)\//.test(file) ? [file] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(packagedPaths);
}

const TENANT = 1;
const PROMPT = 'Order Triage';
const RENAMED = `${PROMPT} (installed)`;

describe('the installed package', () => {
  let service: ServiceClient;
  let tree: Locator;
  let id = 0;

  before(async () => {
    service = adminClient();
    id = await samplePromptId(service, TENANT, PROMPT);
  });
  after(async () => service.close());

  it('is installed from the .vsix with only what runs, nothing else from the repository', () => {
    const { extensionsDir } = workbench();
    const folder = fs.readdirSync(extensionsDir).find((name) => name.startsWith('convai.convai-config-'));
    assert.ok(folder, `no convai.convai-config-* in ${extensionsDir}: ${fs.readdirSync(extensionsDir).join(', ')}`);
    const files = fs.readdirSync(path.join(extensionsDir, folder), { recursive: true, encoding: 'utf8' });
    for (const file of [
      'package.json',
      'dist/extension.js',
      'dist/undici.js',
      'dist/validators.js',
      'dist/re2js.js',
      'dist/writer-worker-script.js',
      'schemas/ai_prompts.schema.json',
      'syntaxes/apirequest.tmLanguage.json',
      'media/icon.png',
      'media/walkthrough/add-connection.md',
      'media/screenshots/tree.png',
    ]) {
      assert.ok(files.includes(file), `the package holds ${file}`);
    }
    // vsce names these its own way (readme.md, LICENSE.txt, changelog.md).
    for (const name of [/^readme\.md$/i, /^license(\.txt)?$/i, /^changelog\.md$/i])
      assert.ok(
        files.some((file) => name.test(file)),
        `the package holds ${String(name)}`,
      );
    assert.deepEqual(
      files.filter((file) => /^(src|test|node_modules|out)(\/|$)|\.map$|\.ts$/.test(file)),
      [],
      'sources, tests, dependencies and maps stay out',
    );
    const manifest: unknown = JSON.parse(fs.readFileSync(path.join(extensionsDir, folder, 'package.json'), 'utf8'));
    const missing = packagedPaths(manifest).filter((file) => !files.includes(file));
    assert.deepEqual(
      missing,
      [],
      "every file package.json names (icons, schemas, grammars, the walkthrough's media) is in the package",
    );
  });

  it('activates from its view and shows the connection `local`', async () => {
    tree = await openConvAiView(workbench().page);
    await treeRow(tree, uiConnectionName, 1).waitFor();
  });

  it("lists a tenant's prompts from the local service in the tree", async () => {
    await expand(treeRow(tree, uiConnectionName, 1));
    await expand(treeRow(tree, 'Acme Support', 2));
    await expand(treeRow(tree, 'AI Prompts', 3));
    await treeRow(tree, PROMPT, 4).waitFor();
  });

  it('opens the prompt from the tree and saves an edit with Ctrl+S', async () => {
    const { page } = workbench();
    await treeRow(tree, PROMPT, 4).locator('.label-name').click();
    await page.locator(`.tabs-container .tab.active[data-resource-name="${id}.json"]`).waitFor();
    // The document is the service's detail object as formatted for the editor; the cursor goes to the end of its name.
    const nameLine = formatDocument(await service.get(kindById('prompt'), id, TENANT))
      .split('\n')
      .findIndex((line) => line.startsWith('  "name":'));
    assert.ok(nameLine > 0, 'the document has a name line');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Home');
    for (let line = 0; line < nameLine; line++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    // Before the closing quote and the comma.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(' (installed)');
    await page.keyboard.press('Control+s');
    await page
      .locator(`.tabs-container .tab.active[data-resource-name="${id}.json"].dirty`)
      .waitFor({ state: 'detached' });
    assert.equal((await service.get(kindById('prompt'), id, TENANT)).name, RENAMED);
  });

  it('runs a prompt test from the CodeLens and shows the answer in the results panel', async () => {
    const { page } = workbench();
    await page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Test Prompt' }).click();
    await answerTestPrompt(
      page,
      'Where is my order?',
      'customer_name',
      '{"customer_name": "Ada", "order_id": "A-1042", "message": "Where is it?"}',
    );
    await resultsPanel(page).getByText('Where is my order?').first().waitFor();
    await resultsPanel(page)
      .locator('pre', { hasText: /^Echo \(/ })
      .first()
      .waitFor();
  });

  it("shows a live tenant's flow map from the tree when the tenant record is refused (403)", async () => {
    const { page, service: local } = workbench();
    // What a tenant's own token gets: the map's file, loaded apart, must know it as the main file's client's error.
    const forbidden = { match: `GET /api/v1/tenants/${TENANT}`, status: 403, body: '{"error":"Forbidden"}' };
    const faults = `${local.url}/__test/faults`;
    const queued = await request(faults, { method: 'POST', body: JSON.stringify({ queue: [forbidden] }) });
    assert.equal(queued.statusCode, 200, await queued.body.text());
    try {
      await treeRow(tree, 'Acme Support', 2).click({ button: 'right' });
      // VS Code's menus act on the focused item; the keyboard is the dependable way to choose one.
      await page.locator('.context-view .monaco-menu .action-label', { hasText: 'Show Flow Map' }).hover();
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab', { hasText: `Flow Map: Acme Support (${uiConnectionName})` }).waitFor();
    } finally {
      await (await request(faults, { method: 'DELETE' })).body.text();
    }
  });
});
