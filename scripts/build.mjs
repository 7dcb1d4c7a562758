// Bundles the extension and the command-line tool (esbuild) into dist/ and compiles tests and tools (tsc) into out/.
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';
import { writeFolderSchemas } from './folder-schemas.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { rmSync } from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');

/** What both bundles share. */
const common = bundleOptions(watch);

await build({
  ...common,
  entryPoints: [path.join(root, 'src/extension.ts')],
  outfile: path.join(root, 'dist/extension.js'),
  external: ['vscode'],
});

// The command-line tool runs in plain Node: no `external`, so a `vscode` import reaching it fails the build.
await build({
  ...common,
  entryPoints: [path.join(root, 'src/cli.ts')],
  outfile: path.join(root, 'dist/cli.js'),
  banner: { js: '#!/usr/bin/env node' },
});

// The schemas of pulled tenant folders' files, derived from schemas/ (package.json's jsonValidation points here).
writeFolderSchemas(path.join(root, 'schemas'), path.join(root, 'dist', 'schemas', 'folder'));

// A full compile into an empty out/ leaves no stale output of deleted sources.
rmSync(path.join(root, 'out'), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', root], { stdio: 'inherit' });
process.exit(tsc.status ?? 1);
