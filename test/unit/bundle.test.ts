import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import {
  bytesOf,
  distPaths,
  FIRST_USE_FILES,
  HOST_BUDGET_KB,
  HOST_FILES,
  SHIPPED_BUDGET_KB,
  shippedFiles,
} from '../bench/host-size';
import { repoRoot } from '../harness/paths';

/**
 * Texts that only ajv's schema compiler holds, in string literals, which minifying keeps: every error of its code
 * generator starts with "CodeGen: ", the Ajv class (`new Ajv`, `compile`) checks its `addKeyword` arguments with
 * the second, and fast-uri, which the compiler resolves schema ids with, explains bad host names with the third.
 * The validators generated at build time need none of them.
 */
const COMPILER_MARKERS = [
  'CodeGen: ',
  'addKeywords: keyword must be string',
  "Host's domain name can not be converted to ASCII",
];

describe('bundles: no schema compiler', () => {
  it("the markers identify ajv's compiler in a bundle as minified as ours", async function () {
    this.timeout(20_000);
    const result = await build({
      stdin: { contents: 'import Ajv from "ajv"; new Ajv().compile({ type: "object" });', resolveDir: repoRoot },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]?.text ?? '';
    for (const marker of COMPILER_MARKERS)
      assert.ok(bundle.includes(marker), `a bundle with ajv's compiler holds ${JSON.stringify(marker)}`);
  });

  for (const file of ['dist/extension.js', 'dist/cli-main.js', 'dist/cli.js']) {
    it(`${file} holds no part of it`, () => {
      const bundle = readFileSync(path.join(repoRoot, file), 'utf8');
      for (const marker of COMPILER_MARKERS)
        assert.ok(!bundle.includes(marker), `${file} holds ${JSON.stringify(marker)}`);
    });
  }
});

/** The undici-only floor built as scripts/bench.mjs builds it (scripts/bundle-options.mjs), in memory: its bytes. */
async function undiciOnlyBytes(): Promise<number> {
  const optionsModule = pathToFileURL(path.join(repoRoot, 'scripts', 'bundle-options.mjs')).href;
  const { undiciOnlyOptions } = (await import(optionsModule)) as { undiciOnlyOptions: (root: string) => BuildOptions };
  // The same file name as the bench's, so that the source map's comment is as long.
  const result = await build({
    ...undiciOnlyOptions(repoRoot),
    outfile: path.join(os.tmpdir(), 'undici-only.js'),
    write: false,
  });
  const bundle = result.outputFiles.find((file) => file.path.endsWith('.js'));
  if (!bundle) throw new Error('esbuild wrote no undici-only.js');
  return bundle.contents.byteLength;
}

describe('bundles: the extension host stays small', () => {
  const dist = path.join(repoRoot, 'dist');

  it(`what activation and the first request load is within ${HOST_BUDGET_KB} KB of an undici-only bundle`, async function () {
    this.timeout(20_000);
    const host = bytesOf(distPaths(dist, HOST_FILES));
    const floor = await undiciOnlyBytes();
    const over = (host - floor) / 1024;
    assert.ok(
      over <= HOST_BUDGET_KB,
      `${HOST_FILES.join(' + ')} weigh ${(host / 1024).toFixed(1)} KB, ${over.toFixed(1)} KB over the undici-only bundle (${(floor / 1024).toFixed(1)} KB): the budget is ${HOST_BUDGET_KB} KB (docs/performance.md)`,
    );
  });

  it(`the package's JavaScript is within ${SHIPPED_BUDGET_KB} KB of an undici-only bundle`, async function () {
    this.timeout(20_000);
    const files = shippedFiles(repoRoot);
    assert.ok(files.includes('extension.js') && files.includes('webview/flow-map.js'), files.join(', '));
    const over = (bytesOf(distPaths(dist, files)) - (await undiciOnlyBytes())) / 1024;
    assert.ok(over <= SHIPPED_BUDGET_KB, `${files.join(' + ')}: ${over.toFixed(1)} KB over the undici-only bundle`);
  });

  it('the main file leaves what it loads at first use to its own files', () => {
    const main = readFileSync(path.join(dist, 'extension.js'), 'utf8');
    for (const file of FIRST_USE_FILES)
      assert.ok(main.includes(`require("./${file}")`), `dist/extension.js requires ./${file} rather than holding it`);
    distPaths(dist, FIRST_USE_FILES);
    const shipped = shippedFiles(repoRoot);
    for (const file of FIRST_USE_FILES) assert.ok(shipped.includes(file), `.vscodeignore lets dist/${file} in`);
  });

  it('a file loaded at first use holds no module of the main file, which it takes from there instead', () => {
    const sources = (file: string): string[] =>
      (JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    const main = new Set(sources('extension.js'));
    // The vscode API's names, read once per bundle (scripts/vscode-api.mjs): no module of ours, and no state.
    const copied = (file: string): string[] =>
      sources(file).filter((source) => main.has(source) && source !== 'vscode-api:vscode');
    for (const file of FIRST_USE_FILES) {
      assert.deepEqual(copied(file), [], `dist/${file} holds copies of modules of dist/extension.js`);
    }
  });

  it('package.json pins undici to the installed version, whose lib/ paths dist/undici.js is built from', () => {
    const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
    const installed = (readJson('node_modules/undici/package.json') as { version: string }).version;
    const manifest = readJson('package.json') as { dependencies: Record<string, string> };
    const lock = readJson('package-lock.json') as {
      packages: Record<string, { dependencies?: Record<string, string> }>;
    };
    assert.equal(
      manifest.dependencies['undici'],
      installed,
      'package.json: "undici" must be the exact installed version, no range',
    );
    assert.equal(
      lock.packages['']?.dependencies?.['undici'],
      installed,
      'package-lock.json: the root package\'s "undici" must match package.json',
    );
  });
});
