// @ts-check
// Brings a machine (a developer's or a fresh CI clone) to the point where the tests can run:
// npm dependencies, the Debian packages the tests need, and code-server in an ignored cache folder.
// Plain JS because it runs before anything is compiled; shared by scripts/test.mjs and scripts/start.mjs.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** code-server 4.100.x is VS Code 1.100 and the last line that runs on Node 20. */
export const codeServerVersion = '4.100.3';
const codeServerDir = path.join(repoRoot, '.vscode-test', 'code-server');
export const codeServerBin = path.join(codeServerDir, 'node_modules', '.bin', 'code-server');

/** chromium drives the workbench; code-server's install needs gssapi headers and a local rg. */
export const systemPackages = ['chromium', 'libkrb5-dev', 'ripgrep'];

// @vscode/ripgrep (a code-server dependency) downloads rg from GitHub unless it finds this file first.
const ripgrepCacheFile = path.join(
  os.tmpdir(),
  'vscode-ripgrep-cache-1.15.11',
  'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz',
);

/**
 * Runs a command with inherited output; throws when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} [options]
 */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
  });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.signal ?? `exit code ${result.status}`})`);
  }
}

/** @param {string} file */
function mtimeMs(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** Installs npm dependencies when node_modules is missing or older than the lockfile. */
export function ensureNodeModules() {
  const lockfile = path.join(repoRoot, 'package-lock.json');
  // npm rewrites node_modules/.package-lock.json on every install, so its age is the install's age.
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  if (!existsSync(lockfile)) {
    if (!existsSync(path.join(repoRoot, 'node_modules'))) run('npm', ['install', '--no-audit', '--no-fund']);
    return;
  }
  // A linked node_modules is another checkout's (a git worktree's): npm ci here would empty it under that checkout.
  if (lstatSync(path.join(repoRoot, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink()) return;
  if (!existsSync(installed) || mtimeMs(lockfile) > mtimeMs(installed)) run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** @param {string} name */
function isDebianPackageInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

let aptUpdated = false;

/**
 * Installs the missing ones of the given Debian packages (as root), or says what to install and throws.
 * @param {string[]} [names]
 */
export function ensureSystemPackages(names = systemPackages) {
  if (spawnSync('dpkg-query', ['--version']).status !== 0) {
    console.warn(`No dpkg here: make sure these are installed (Debian names): ${names.join(' ')}`);
    return;
  }
  const missing = names.filter((name) => !isDebianPackageInstalled(name));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing system packages; install them with: sudo apt-get install -y ${missing.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['update'], { env });
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', ...missing], { env });
}

/** @param {string} name */
function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} is not on PATH`);
}

/** Seeds @vscode/ripgrep's download cache with the system's rg, so code-server installs offline. */
function seedRipgrepCache() {
  if (existsSync(ripgrepCacheFile)) return;
  mkdirSync(path.dirname(ripgrepCacheFile), { recursive: true });
  // The archive must hold `rg` at its root; a symlink followed by tar -h gives it that name.
  const staging = mkdtempSync(path.join(os.tmpdir(), 'rg-seed-'));
  try {
    symlinkSync(findOnPath('rg'), path.join(staging, 'rg'));
    run('tar', ['-czhf', ripgrepCacheFile, '-C', staging, 'rg']);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function installedCodeServerVersion() {
  const manifest = path.join(codeServerDir, 'node_modules', 'code-server', 'package.json');
  if (!existsSync(manifest) || !existsSync(codeServerBin)) return undefined;
  /** @type {{ version?: unknown }} */
  const parsed = JSON.parse(readFileSync(manifest, 'utf8'));
  return parsed.version;
}

/**
 * Installs code-server into .vscode-test/code-server unless the pinned version is already there.
 * @returns {string} the code-server executable
 */
export function ensureCodeServer() {
  if (installedCodeServerVersion() === codeServerVersion) return codeServerBin;
  ensureSystemPackages(['libkrb5-dev', 'ripgrep']);
  seedRipgrepCache();
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(path.join(codeServerDir, 'package.json'), '{"name":"cs-cache","private":true}\n');
  console.log(
    `Installing code-server@${codeServerVersion} into ${path.relative(repoRoot, codeServerDir)} (about a minute)…`,
  );
  run(
    'npm',
    [
      'install',
      '--prefix',
      codeServerDir,
      // Its native modules and its VS Code payload are set up by install scripts, which npm 11 blocks by default.
      '--dangerously-allow-all-scripts=true',
      // As root, its postinstall refuses to run without this.
      '--unsafe-perm',
      '--no-audit',
      '--no-fund',
      `code-server@${codeServerVersion}`,
    ],
    // A nested `npx node-gyp` in its install script would otherwise wait for a yes.
    { cwd: codeServerDir, env: { ...process.env, npm_config_yes: 'true' } },
  );
  const version = installedCodeServerVersion();
  if (version !== codeServerVersion) {
    throw new Error(`code-server install finished but found version ${String(version)}, expected ${codeServerVersion}`);
  }
  return codeServerBin;
}
