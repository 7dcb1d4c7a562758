// The installed-package suite: packages the extension as `npm run package` does, then runs test/installed (Playwright
// on a live workbench, like test/ui) with that .vsix installed into code-server instead of the repository's folder.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMochaSuite } from './mocha-suite';
import { repoRoot } from './paths';
import { brokenOutcome, SuiteOutcome } from './summary';

export function runInstalledSuite(): SuiteOutcome {
  const started = Date.now();
  // scripts/test.mjs has just built; the package is made of that build.
  const packaging = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs'), '--no-build'], { cwd: repoRoot, encoding: 'utf8' });
  if (packaging.status !== 0) {
    return brokenOutcome('installed', `npm run package failed: ${packaging.error?.message ?? ''}${packaging.stderr}${packaging.stdout}`.trim(), Date.now() - started);
  }
  const { name, version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(repoRoot, `${name}-${version}.vsix`);
  console.log(`  packaged ${path.relative(repoRoot, vsix)} (${Math.round(fs.statSync(vsix).size / 1024)} KB)`);
  return runMochaSuite('installed', 60_000, { CONVAI_VSIX: vsix });
}
