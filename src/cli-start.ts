/**
 * dist/cli.js, the command that `convai` runs: starts the command-line tool's bundle (dist/cli-main.js, from
 * src/cli.ts) from the code an earlier run of the same command kept (src/cli/code-cache.ts).
 */
import path from 'node:path';
import { codeCacheFile, startBundle } from './cli/code-cache';

const started = startBundle(path.join(__dirname, 'cli-main.js'), codeCacheFile(process.env, process.argv[2]));
// Kept after a run that did its work, so the code holds what the command compiles when it succeeds.
process.once('exit', (code) => {
  if (code === 0) started.keep();
});
