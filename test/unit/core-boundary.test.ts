import * as assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { repoRoot } from '../harness/paths';

/** The messages ESLint gives `text` placed at `filePath`, with the repository's own config. */
async function lintAs(filePath: string, text: string): Promise<{ ruleId: string | null; message: string }[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(text, { filePath });
  assert.ok(result, 'ESLint returned no result');
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('the core import boundary (eslint.config.mjs)', function () {
  // The first ESLint of a process loads typescript-eslint, which takes a few seconds on a busy machine.
  this.timeout(30_000);

  it('fails a core module that imports a feature folder', async () => {
    const messages = await lintAs(
      'src/core/x.ts',
      "import { x } from '../documents/locations';\nexport const y = x;\n",
    );
    assert.deepEqual(
      messages.map((m) => m.ruleId),
      ['local/core-boundary'],
    );
    assert.match(messages[0]?.message ?? '', /'\.\.\/documents\/locations' is outside/);
  });

  it('fails a core module in a subfolder that climbs out of the core, by require or export', async () => {
    const text = "export * from '../../extension';\nexport const s = require('../../cli/main');\n";
    const messages = await lintAs('src/core/prompt-tests/x.ts', text);
    assert.equal(messages.filter((m) => m.ruleId === 'local/core-boundary').length, 2);
  });

  it('still bans vscode in the core', async () => {
    const messages = await lintAs('src/core/x.ts', "import * as vscode from 'vscode';\nexport const y = vscode;\n");
    assert.deepEqual(
      messages.map((m) => m.ruleId),
      ['no-restricted-imports'],
    );
  });

  it('passes core, Node and package imports in the core, and any import outside it', async () => {
    const allowed = [
      "import { kindById } from '../resources';",
      "import { readFileSync } from 'node:fs';",
      "import { parseTree } from 'jsonc-parser';",
      'export const all = [kindById, readFileSync, parseTree];',
    ].join('\n');
    assert.deepEqual(await lintAs('src/core/prompt-tests/x.ts', `${allowed}\n`), []);
    assert.deepEqual(await lintAs('src/documents/x.ts', "import { x } from '../tree/y';\nexport const y = x;\n"), []);
  });
});
