// @ts-check
// `npm run bench [-- --only <group>]`: prepares the machine and builds as `npm test` does, bundles the undici-only
// floor of the activation measure, then hands over to the compiled bench (test/bench/main.ts), which reads the
// arguments (`-- --help` lists them). Not part of `npm test`: timings are not tests.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { undiciOnlyOptions } from './bundle-options.mjs';
import { ensureCodeServer, ensureNodeModules, ensureSystemPackages, repoRoot, run } from './ensure.mjs';

// In out/, which the build empties first: never in dist/, whose files are the extension's and the tool's.
const undiciBundle = path.join(repoRoot, 'out', 'bench', 'undici-only.js');

/** @type {string} */
let codeServer;
try {
  ensureNodeModules();
  ensureSystemPackages();
  codeServer = ensureCodeServer();
  run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]);
  await build({ ...undiciOnlyOptions(repoRoot), outfile: undiciBundle });
} catch (error) {
  console.error(`bench could not be prepared: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const bench = spawnSync(
  process.execPath,
  [path.join(repoRoot, 'out', 'test', 'bench', 'main.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: repoRoot,
    env: { ...process.env, CONVAI_CODE_SERVER: codeServer, CONVAI_BENCH_UNDICI_BUNDLE: undiciBundle },
  },
);
process.exit(bench.status ?? 2);
