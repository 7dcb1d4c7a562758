/**
 * dist/cli.js, what `convai` runs: turns on node's compile cache, then runs the command-line tool's bundle
 * (dist/cli-main.js, from src/cli.ts). The cache must be on before the bundle is loaded, or node compiles the bundle
 * anew on every run; so the bundle is a file of its own, which this small one requires.
 */
import module from 'node:module';

/** Node 22.1 and later have a compile cache; an older node just compiles the tool on each run. */
const withCompileCache = module as typeof module & { enableCompileCache?: () => unknown };
withCompileCache.enableCompileCache?.();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./cli-main.js');
