// Bundles the extension (esbuild) into dist/ and compiles tests and tools (tsc) into out/.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { rmSync } from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');

await build({
  entryPoints: [path.join(root, 'src/extension.ts')],
  outfile: path.join(root, 'dist/extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  // jsonc-parser's UMD entry loads its parts with a dynamic require that a bundle cannot follow.
  mainFields: ['module', 'main'],
  minify: !watch,
  sourcemap: true,
  logLevel: 'warning',
});

// A full compile into an empty out/ leaves no stale output of deleted sources.
rmSync(path.join(root, 'out'), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', root], { stdio: 'inherit' });
process.exit(tsc.status ?? 1);
