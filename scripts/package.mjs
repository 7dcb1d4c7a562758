// @ts-check
// `npm run package [-- --no-build]`: builds, then writes convai-config-<version>.vsix at the repository's root with
// @vscode/vsce. The bundle holds every dependency, so none is packaged; .vscodeignore lets in only what runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureNodeModules, repoRoot, run } from './ensure.mjs';

ensureNodeModules();
if (!process.argv.includes('--no-build')) run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]);
const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const vsix = path.join(repoRoot, `${name}-${version}.vsix`);
run(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix]);
