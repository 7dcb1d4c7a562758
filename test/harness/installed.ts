// The installed-package suite: packages the extension as `npm run package` does, then runs test/installed (Playwright
// on a live workbench, like test/ui) with that .vsix installed into code-server instead of the repository's folder.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMochaSuite } from './mocha-suite';
import { repoRoot } from './paths';
import { brokenOutcome, SuiteOutcome } from './summary';

export async function runInstalledSuite(): Promise<SuiteOutcome> {
  const started = Date.now();
  // scripts/test.mjs has just built; the package is made of that build.
  // In a child process, so that vsce's list of every packaged file stays out of the test output unless it fails.
  const packing = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs'), '--no-build'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (packing.status !== 0) {
    return brokenOutcome(
      'installed',
      `npm run package failed: ${packing.error?.message ?? ''}${packing.stderr}${packing.stdout}`.trim(),
      Date.now() - started,
    );
  }
  const packaging = (await import(pathToFileURL(path.join(repoRoot, 'scripts', 'package.mjs')).href)) as {
    vsixPath(): string;
  };
  const vsix = packaging.vsixPath();
  console.log(`  packaged ${path.relative(repoRoot, vsix)} (${Math.round(fs.statSync(vsix).size / 1024)} KB)`);
  return runMochaSuite('installed', 60_000, { CONVAI_VSIX: vsix });
}
