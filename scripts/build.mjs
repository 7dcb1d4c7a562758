// Bundles the extension and the command-line tool (esbuild) into dist/ and compiles tests and tools (tsc) into out/.
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';
import { dagreFlatGraphs } from './dagre-flat.mjs';
import { compileValidators } from './compile-validators.mjs';
import { vscodeApiOnce } from './vscode-api.mjs';
import { writeFolderSchemas } from './folder-schemas.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');

/** What both bundles share. */
const common = bundleOptions(watch);

// Before both bundles and tsc: src/core/validation.ts imports the generated validators.
compileValidators(path.join(root, 'schemas'), path.join(root, 'src/core/generated/validators.ts'));

/** The parts of undici the extension uses (src/http/undici-subset.js), in place of its whole index. */
const undiciSubset = path.join(root, 'src/http/undici-subset.js');

/**
 * undici in dist/undici.js, loaded at the first request (src/core/http.ts).
 * @type {import('esbuild').Plugin}
 */
const undiciApart = {
  name: 'undici',
  setup: (b) => b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true })),
};

/**
 * re2js, the pattern engine of prompt tests, in dist/re2js.js, loaded at the first pattern (src/core/pattern.ts):
 * evaluating its ~150 KB cost every command some 40 ms (plan, pull and push match none), and an extension host that
 * runs no prompt test never needs to read it.
 * @type {import('esbuild').Plugin}
 */
const re2jsApart = {
  name: 're2js',
  setup: (b) => b.onResolve({ filter: /^re2js$/ }, () => ({ path: './re2js.js', external: true })),
};

/**
 * jsonc-parser in dist/jsonc.js, loaded at the first JSON text parsed with positions (src/core/jsonc.ts): about 18 KB
 * that activation never runs, in the extension only; the command-line tool keeps it in its bundle.
 * @type {import('esbuild').Plugin}
 */
const jsoncApart = {
  name: 'jsonc',
  setup: (b) => b.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: './jsonc.js', external: true })),
};

/**
 * The compiled schemas in dist/validators.js, loaded at the first check (src/core/validation.ts): about 90 KB that
 * every command would parse, and a plan of an unchanged folder never runs; the extension checks nothing until a
 * document is edited or saved. They share nothing with the bundles but ajv's runtime helpers, which are small.
 * @type {import('esbuild').Plugin}
 */
const validatorsApart = {
  name: 'validators',
  setup: (b) =>
    b.onResolve({ filter: /\/generated\/validators$/ }, () => ({ path: './validators.js', external: true })),
};

/**
 * The flow map (its panel, reading a map and the map's core) in dist/flow-map.js, loaded at the first map
 * (src/flow-map/register.ts): the extension host's budget (docs/performance.md) has no room for a feature most
 * sessions never open.
 * @type {import('esbuild').Plugin}
 */
const flowMapApart = {
  name: 'flow-map',
  setup: (b) =>
    b.onResolve({ filter: /^\.\/opened$/ }, (args) =>
      args.importer.endsWith(path.join('flow-map', 'register.ts'))
        ? { path: './flow-map.js', external: true }
        : undefined,
    ),
};

/**
 * The variant lab (its panel, the matrix run with its trial copies, Apply Variant) in dist/trials.js with the trial
 * engine, loaded at the first lab or applied variant (src/variant-lab/register.ts): most sessions never compare variants.
 * @type {import('esbuild').Plugin}
 */
const variantLabApart = {
  name: 'variant-lab',
  setup: (b) =>
    b.onResolve({ filter: /^\.\/opened$/ }, (args) =>
      args.importer.endsWith(path.join('variant-lab', 'register.ts'))
        ? { path: './trials.js', external: true }
        : undefined,
    ),
};

/**
 * The bundles the extension loads at first use (the flow map's, the results panel's rendering) hold only the modules
 * dist/extension.js does not: they take every other from it, which loaded them already, as its export `modules`. A
 * second copy of a module would be a second copy of its classes: an error the client throws (a ServiceError) would be
 * no instance of the copy's class, and what a reader tolerates by its status (a 404, a 403) would fail it instead.
 * @param {ReadonlySet<string>} inExtension the modules dist/extension.js holds, by path in the repository
 */
function sharedWithExtension(inExtension) {
  /** @type {Set<string>} the modules taken, by path in the repository */
  const taken = new Set();
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'shared-with-extension',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'resolving' || args.namespace !== 'file') return undefined;
        const resolved = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        const module = path.relative(root, resolved.path).split(path.sep).join('/');
        if (resolved.errors.length > 0 || resolved.external || !inExtension.has(module)) return resolved;
        taken.add(module);
        return { path: module, namespace: 'extension' };
      });
      b.onResolve({ filter: /.*/, namespace: 'extension' }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'extension' }, (args) => ({
        contents: `module.exports = require('./extension.js').modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  /** @param {string} main the extension's own entry, from the repository */
  const entry = (main) => {
    const modules = [...taken].sort();
    return [
      `export * from '${main}';`,
      ...modules.map((module, i) => `import * as m${i} from './${module}';`),
      `export const modules = { ${modules.map((module, i) => `${JSON.stringify(module)}: m${i}`).join(', ')} };`,
    ].join('\n');
  };
  return { plugin, entry };
}

/**
 * The results panel's rendering (src/operations/render.ts and its parts) in dist/results-render.js, loaded at the
 * panel's first render: code that activation never runs.
 * @type {import('esbuild').Plugin}
 */
const resultsRenderApart = {
  name: 'results-render',
  setup: (b) =>
    b.onResolve({ filter: /^\.\/render$/ }, (args) =>
      args.importer.endsWith(path.join('operations', 'panel.ts'))
        ? { path: './results-render.js', external: true }
        : undefined,
    ),
};

/**
 * The trial engine's VS Code work (src/trials/engine.ts) in dist/trials.js, loaded at the first trial or clean-up of
 * trial copies: most sessions never test an unsaved edit.
 * @type {import('esbuild').Plugin}
 */
const trialsApart = {
  name: 'trials',
  setup: (b) =>
    b.onResolve({ filter: /^\.\/engine$/ }, (args) =>
      args.importer.endsWith(path.join('trials', 'load.ts')) ? { path: './trials.js', external: true } : undefined,
    ),
};

/**
 * The suite engine (src/core/prompt-tests/run.ts: cases, conversations, simulated calls) in dist/suite-engine.js,
 * loaded at the first run of a suite: editing one, with its problems and completions, never needs it. The variant
 * lab's matrix run (src/core/variants/variant-run.ts) takes it from there too, rather than a copy in its own bundle.
 * @type {import('esbuild').Plugin}
 */
const suiteEngineApart = {
  name: 'suite-engine',
  setup: (b) => {
    const external = { path: './suite-engine.js', external: true };
    b.onResolve({ filter: /^\.\.\/core\/prompt-tests\/run$/ }, (args) =>
      args.importer.endsWith(path.join('prompt-tests', 'suite-engine.ts')) ? external : undefined,
    );
    b.onResolve({ filter: /^\.\.\/prompt-tests\/run$/ }, (args) =>
      args.importer.endsWith(path.join('variants', 'variant-run.ts')) ? external : undefined,
    );
  },
};

// undici waits in a file of its own until the first request, the schemas until the first check and re2js until the
// first pattern, so activation loads none of them (docs/performance.md counts what it does load against a budget).
/** @type {import('esbuild').BuildOptions} */
const extension = {
  ...common,
  absWorkingDir: root,
  outfile: path.join(root, 'dist/extension.js'),
  plugins: [
    undiciApart,
    validatorsApart,
    re2jsApart,
    jsoncApart,
    flowMapApart,
    variantLabApart,
    resultsRenderApart,
    trialsApart,
    suiteEngineApart,
    vscodeApiOnce(root),
  ],
};
// The modules dist/extension.js holds, by their path in the repository (as esbuild's metafile names them).
const { metafile } = await build({
  ...extension,
  entryPoints: [path.join(root, 'src/extension.ts')],
  write: false,
  metafile: true,
});
const shared = sharedWithExtension(new Set(Object.keys(metafile.inputs)));
await build({
  ...common,
  entryPoints: [path.join(root, 'src/operations/render.ts')],
  outfile: path.join(root, 'dist/results-render.js'),
  plugins: [shared.plugin],
});
await build({
  ...common,
  entryPoints: [path.join(root, 'src/flow-map/opened.ts')],
  outfile: path.join(root, 'dist/flow-map.js'),
  plugins: [undiciApart, validatorsApart, re2jsApart, jsoncApart, vscodeApiOnce(root), shared.plugin],
});
// The trial engine and the variant lab, whose every variant is a trial copy, share one file: one copy of the trial
// modules. A file loaded at first use reads the VS Code API as modules of its own did before vscodeApiOnce: for its
// few modules, that costs less than the 4 KB list of the API's names.
await build({
  ...common,
  stdin: {
    contents: "export * from './src/trials/engine';\nexport * from './src/variant-lab/opened';\n",
    resolveDir: root,
    sourcefile: 'trials-entry.ts',
    loader: 'ts',
  },
  outfile: path.join(root, 'dist/trials.js'),
  external: ['vscode'],
  plugins: [undiciApart, validatorsApart, re2jsApart, jsoncApart, suiteEngineApart, shared.plugin],
});
await build({
  ...common,
  entryPoints: [path.join(root, 'src/core/prompt-tests/run.ts')],
  outfile: path.join(root, 'dist/suite-engine.js'),
  plugins: [undiciApart, validatorsApart, re2jsApart, jsoncApart, shared.plugin],
});
// dist/extension.js: src/extension.ts, and the modules the bundles above take from it.
await build({
  ...extension,
  stdin: {
    contents: shared.entry('./src/extension.ts'),
    resolveDir: root,
    sourcefile: 'extension-entry.js',
    loader: 'js',
  },
});
// The writer worker's script, beside both bundles that start it (src/core/tenant/writer-worker.ts).
await build({
  ...common,
  entryPoints: [path.join(root, 'src/core/tenant/writer-worker-script.ts')],
  outfile: path.join(root, 'dist/writer-worker-script.js'),
});
// These three are shared by the extension and the command-line tool; dist/jsonc.js is the extension's alone.
await build({ ...common, entryPoints: [undiciSubset], outfile: path.join(root, 'dist/undici.js') });
await build({
  ...common,
  stdin: { contents: "export * from 're2js';", resolveDir: root, sourcefile: 're2js.js', loader: 'js' },
  outfile: path.join(root, 'dist/re2js.js'),
});
await build({
  ...common,
  entryPoints: [path.join(root, 'src/core/generated/validators.ts')],
  outfile: path.join(root, 'dist/validators.js'),
});
await build({
  ...common,
  stdin: {
    contents: "module.exports = require('jsonc-parser');",
    resolveDir: root,
    sourcefile: 'jsonc.js',
    loader: 'js',
  },
  outfile: path.join(root, 'dist/jsonc.js'),
});

// The flow map page's script with its layout library, for the browser: only the map's webview loads it, so neither
// activation nor the extension host's budget pays for it (docs/performance.md gives it a budget of its own).
await build({
  ...common,
  platform: 'browser',
  format: 'iife',
  target: 'chrome120',
  entryPoints: [path.join(root, 'src/flow-map/webview/main.ts')],
  outfile: path.join(root, 'dist/webview/flow-map.js'),
  plugins: [dagreFlatGraphs],
});

// The command-line tool runs in plain Node: no other `external`, so a `vscode` import reaching it fails the build.
// undici waits apart here too: a command that sends no request (plan of an unchanged folder, --help) starts ~10 ms
// sooner (node itself takes ~90) for not parsing its ~310 KB.
await build({
  ...common,
  entryPoints: [path.join(root, 'src/cli.ts')],
  outfile: path.join(root, 'dist/cli-main.js'),
  // `convai --version` (src/cli/version.ts).
  define: {
    CONVAI_CLI_VERSION: JSON.stringify(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version),
  },
  plugins: [undiciApart, validatorsApart, re2jsApart],
});
// What `convai` runs: node's compile cache turned on, then dist/cli-main.js required (src/cli-start.ts).
await build({
  ...common,
  entryPoints: [path.join(root, 'src/cli-start.ts')],
  outfile: path.join(root, 'dist/cli.js'),
  external: ['./cli-main.js'],
  banner: { js: '#!/usr/bin/env node' },
});

// The schemas of pulled tenant folders' files, derived from schemas/ (package.json's jsonValidation points here).
writeFolderSchemas(path.join(root, 'schemas'), path.join(root, 'dist', 'schemas', 'folder'));

// A full compile into an empty out/ leaves no stale output of deleted sources.
rmSync(path.join(root, 'out'), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', root], {
  stdio: 'inherit',
});
// The page's script is checked apart, against the browser's types, which the extension's code must not see.
const page = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'src/flow-map/webview')],
  { stdio: 'inherit' },
);
process.exit((tsc.status ?? 1) || (page.status ?? 1));
