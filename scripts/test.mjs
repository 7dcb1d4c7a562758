// @ts-check
// `npm test [-- suite…]`: prepares the machine, builds, then hands over to the compiled suite runner.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCodeServer, ensureNodeModules, ensureSystemPackages, repoRoot, run } from './ensure.mjs';

const suites = process.argv.slice(2);
const needsCodeServer =
  suites.length === 0 || ['integration', 'ui', 'installed'].some((suite) => suites.includes(suite));

/**
 * @template T
 * @param {string} label
 * @param {() => T} step
 * @returns {T}
 */
function timed(label, step) {
  const started = Date.now();
  const result = step();
  console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** @type {string | undefined} */
let codeServer;
try {
  timed('ensure', () => {
    ensureNodeModules();
    if (needsCodeServer) {
      ensureSystemPackages();
      codeServer = ensureCodeServer();
    }
  });
  timed('build', () => run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The folders' stamps the tests' pulls and plans keep go with the run, not into the user's cache.
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'convai-test-cache-'));
const suiteRunner = spawnSync(
  process.execPath,
  [path.join(repoRoot, 'out', 'test', 'harness', 'run-suites.js'), ...suites],
  {
    stdio: 'inherit',
    cwd: repoRoot,
    env: { ...process.env, CONVAI_CACHE_DIR: cacheDir, ...(codeServer ? { CONVAI_CODE_SERVER: codeServer } : {}) },
  },
);
rmSync(cacheDir, { recursive: true, force: true });
process.exit(suiteRunner.status ?? 1);
