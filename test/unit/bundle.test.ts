import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../harness/paths';

/**
 * Texts that only ajv's schema compiler holds, in string literals, which minifying keeps: every error of its code
 * generator starts with "CodeGen: ", the Ajv class (`new Ajv`, `compile`) checks its `addKeyword` arguments with
 * the second, and fast-uri, which the compiler resolves schema ids with, explains bad host names with the third.
 * The validators generated at build time need none of them.
 */
const COMPILER_MARKERS = ['CodeGen: ', 'addKeywords: keyword must be string', 'Host\'s domain name can not be converted to ASCII'];

describe('bundles: no schema compiler', () => {
  it('the markers identify ajv\'s compiler in a bundle as minified as ours', async function () {
    this.timeout(20_000);
    const result = await build({
      stdin: { contents: 'import Ajv from "ajv"; new Ajv().compile({ type: "object" });', resolveDir: repoRoot },
      bundle: true, platform: 'node', format: 'cjs', minify: true, write: false, logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]?.text ?? '';
    for (const marker of COMPILER_MARKERS) assert.ok(bundle.includes(marker), `a bundle with ajv's compiler holds ${JSON.stringify(marker)}`);
  });

  for (const file of ['dist/extension.js', 'dist/cli.js']) {
    it(`${file} holds no part of it`, () => {
      const bundle = readFileSync(path.join(repoRoot, file), 'utf8');
      for (const marker of COMPILER_MARKERS) assert.ok(!bundle.includes(marker), `${file} holds ${JSON.stringify(marker)}`);
    });
  }
});
