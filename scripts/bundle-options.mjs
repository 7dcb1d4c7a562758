// @ts-check
// esbuild options every bundle of the extension shares: scripts/build.mjs builds dist/ with them, and
// scripts/bench.mjs its undici-only floor, so that the two compare like with like.

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
