// @ts-check
// esbuild options every bundle of the extension shares: scripts/build.mjs builds dist/ with them, and
// scripts/bench.mjs and test/unit/bundle.test.ts the undici-only floor, so that they compare like with like.

/**
 * @param {boolean} watch
 * @returns {import('esbuild').BuildOptions}
 */
export function bundleOptions(watch) {
  return {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // jsonc-parser's UMD entry loads its parts with a dynamic require that a bundle cannot follow.
    mainFields: ['module', 'main'],
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  };
}

/**
 * The floor the extension host's JavaScript is measured against (docs/performance.md): undici's whole index, bundled
 * like dist/extension.js. Without an output file: the caller names where it goes.
 * @param {string} root the repository
 * @returns {import('esbuild').BuildOptions}
 */
export function undiciOnlyOptions(root) {
  return {
    ...bundleOptions(false),
    stdin: { contents: "export * from 'undici';", resolveDir: root, sourcefile: 'undici-only.js', loader: 'js' },
    external: ['vscode'],
  };
}
