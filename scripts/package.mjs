// @ts-check
// `npm run package [-- --no-build]`: builds, then writes convai-config-<version>.vsix at the repository's root with
// @vscode/vsce, and convai-cli-<version>.tgz, the command-line tool as an npm package (`npm install -g` it; its bin is
// `convai`). The bundles hold every dependency, so none is packaged; .vscodeignore lets in only what runs.
// Also imported: `npm start -- --installed` and the installed suite use the same package and its path.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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
  run(process.execPath, [
    path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies',
    '--out',
    vsix,
  ]);
  return vsix;
}

/**
 * The command-line tool's files in dist/: its start, the tool, what it loads at its first request, check and pattern,
 * and its folders' thread.
 */
const CLI_FILES = ['cli.js', 'cli-main.js', 're2js.js', 'undici.js', 'validators.js', 'writer-worker-script.js'];

const CLI_README = `# convai

The command-line tool of ConvAI Config: tenant folders (pull, plan, push) and
prompt test suites from a terminal or CI, against a Conversational AI
Configuration Service.

    export CONVAI_TOKEN=…
    convai pull --url https://convai.example.com --tenant 1 tenant/
    convai plan tenant/
    convai push tenant/
    convai test --url https://convai.example.com prompts/

\`convai --help\` lists the commands, \`convai <command> --help\` their options.
`;

/**
 * Writes convai-cli-<version>.tgz at the repository's root from what dist/ holds (built before): a package with no
 * dependencies to install, so CI runs `npm install -g ./convai-cli-<version>.tgz` without the repository.
 */
export function packageCli() {
  const { version, license } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const staging = mkdtempSync(path.join(os.tmpdir(), 'convai-cli-'));
  try {
    mkdirSync(path.join(staging, 'dist'));
    for (const file of CLI_FILES) copyFileSync(path.join(repoRoot, 'dist', file), path.join(staging, 'dist', file));
    copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(staging, 'LICENSE'));
    writeFileSync(path.join(staging, 'README.md'), CLI_README);
    writeFileSync(
      path.join(staging, 'package.json'),
      `${JSON.stringify(
        {
          name: 'convai-cli',
          version,
          description:
            'Tenant folders and prompt test suites of a Conversational AI Configuration Service, from a terminal or CI.',
          license,
          bin: { convai: 'dist/cli.js' },
          files: CLI_FILES.map((file) => `dist/${file}`),
          engines: { node: '>=20' },
        },
        null,
        2,
      )}\n`,
    );
    run('npm', ['pack', '--silent', '--pack-destination', staging], { cwd: staging });
    const tgz = path.join(repoRoot, `convai-cli-${version}.tgz`);
    renameSync(path.join(staging, `convai-cli-${version}.tgz`), tgz);
    return tgz;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureNodeModules();
  packageExtension({ build: !process.argv.includes('--no-build') });
  console.log(packageCli());
}
