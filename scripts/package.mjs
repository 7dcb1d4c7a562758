// @ts-check
// `npm run package [-- --no-build]`: builds, then writes convai-config-<version>.vsix at the repository's root with
// @vscode/vsce. The bundle holds every dependency, so none is packaged; .vscodeignore lets in only what runs.
// Also imported: `npm start -- --installed` and the installed suite use the same package and its path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNodeModules, repoRoot, run } from './ensure.mjs';

/** Where the package of the repository's current version goes. */
export function vsixPath() {
  const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return path.join(repoRoot, `${name}-${version}.vsix`);
}

/**
 * Packages what dist/ holds (built unless `build` is false); returns the .vsix's path.
 * @param {{ build: boolean }} options
 */
export function packageExtension({ build }) {
  if (build) run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]);
  const vsix = vsixPath();
  run(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix]);
  return vsix;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureNodeModules();
  packageExtension({ build: !process.argv.includes('--no-build') });
}
