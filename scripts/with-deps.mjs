// @ts-check
// `node scripts/with-deps.mjs [<script> [args…]]`: installs the npm dependencies when they are missing or older than
// the lockfile (ensure.mjs), then runs the script with its arguments. npm scripts whose own modules import a
// dependency go through it, so each works on a fresh clone: a static import of a missing package fails before any
// line of the script could install it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureNodeModules } from './ensure.mjs';

ensureNodeModules();
const [script, ...args] = process.argv.slice(2);
if (script !== undefined) {
  const file = path.resolve(script);
  process.argv = [process.argv[0] ?? 'node', file, ...args];
  await import(pathToFileURL(file).href);
}
