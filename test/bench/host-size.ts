// What docs/performance.md counts as the extension host's JavaScript, against its budget: the bench's row and a unit
// test (test/unit/bundle.test.ts) measure it with these, so that the two cannot count different things.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What a host loads of the extension when it activates and sends its first request (the tree lists tenants at once):
 * the main file and the parts of undici used (src/core/http.ts).
 */
export const HOST_FILES: readonly string[] = ['extension.js', 'undici.js'];

/**
 * Loaded at a feature's first use, and so not counted: the compiled schemas at the first check of an edited or saved
 * document (src/core/validation.ts), re2js at a prompt test's first pattern (src/core/pattern.ts), the flow map's core
 * at the first map (src/flow-map/register.ts), jsonc-parser at the first JSON text parsed with positions
 * (src/core/jsonc.ts), the results panel's rendering at its first render (src/operations/panel.ts), the trial engine at
 * the first trial of unsaved edits or clean-up of trial copies (src/trials/engine.ts), the suite engine at the first
 * run of a suite (src/prompt-tests/suite-engine.ts).
 */
export const FIRST_USE_FILES: readonly string[] = [
  'validators.js',
  're2js.js',
  'flow-map.js',
  'jsonc.js',
  'results-render.js',
  'trials.js',
  'suite-engine.js',
];

/**
 * KB over the undici-only bundle. The host file also exports the modules the files loaded at first use take from it,
 * so that no class exists twice in a host; the whole shipped JavaScript has a budget of its own (SHIPPED_BUDGET_KB).
 */
export const HOST_BUDGET_KB = 170;

/** KB over the undici-only bundle for all the extension's JavaScript, what loads at first use included: issue 43's. */
export const SHIPPED_BUDGET_KB = 550;

/**
 * Every JavaScript file of the extension's package, as .vscodeignore lets them in: the host's, those it loads at first
 * use, the folder worker's and the map page's.
 */
export function shippedFiles(root: string): string[] {
  const letIn = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
  return [...letIn.matchAll(/^!dist\/(\S+\.js)$/gm)].map((match) => match[1] ?? '');
}

/** The paths of `files` in `dist`, each required to exist: a missing file would count as nothing. */
export function distPaths(dist: string, files: readonly string[]): string[] {
  return files.map((file) => {
    const at = path.join(dist, file);
    if (!fs.existsSync(at)) throw new Error(`${at} is missing: build first (node scripts/build.mjs)`);
    return at;
  });
}

export function bytesOf(paths: readonly string[]): number {
  return paths.reduce((sum, at) => sum + fs.statSync(at).size, 0);
}
