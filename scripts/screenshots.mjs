// @ts-check
// `npm run screenshots`: runs the UI suite in the mode where its tests also write the docs' pictures into
// media/screenshots/, so the pictures show the extension as it is. Fails when a picture that the README, a page of
// docs/ or the walkthrough (package.json) shows was not written by this run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './ensure.mjs';

const folder = path.join(repoRoot, 'media', 'screenshots');
const started = Date.now();
const suite = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'test.mjs'), 'ui'], {
  stdio: 'inherit',
  cwd: repoRoot,
  env: { ...process.env, CONVAI_SCREENSHOTS: folder },
});
if (suite.status !== 0) {
  console.error(
    'The UI suite failed, so media/screenshots/ may mix old and new pictures (git checkout media/screenshots undoes them).',
  );
  process.exit(suite.status ?? 1);
}

const docs = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.md'))
  .map((name) => path.join('docs', name));
const shown = new Set(
  ['README.md', 'package.json', ...docs].flatMap((file) =>
    [...readFileSync(path.join(repoRoot, file), 'utf8').matchAll(/media\/screenshots\/([\w-]+\.png)/g)].map(
      ([, name]) => String(name),
    ),
  ),
);
const stale = [...shown].filter((name) => {
  const file = path.join(folder, name);
  return !existsSync(file) || statSync(file).mtimeMs < started;
});
if (stale.length > 0) {
  console.error(
    `No UI test wrote these pictures, which the README, docs/ or the walkthrough shows: ${stale.join(', ')}`,
  );
  process.exit(1);
}
console.log(`media/screenshots/: ${[...shown].sort().join(', ')} written.`);
