// @ts-check
// One module for every `import * as vscode from 'vscode'` in the extension's bundle. esbuild turns each such import of
// an external CommonJS module into a copy of all its properties (a getter each): with some sixty modules importing
// the API of about two hundred names, that was the largest part of loading the extension. Through this module the API
// is read once, into named exports the other modules use directly.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The API's run-time names (classes, enums, namespaces, constants) as @types/vscode declares them at its top level.
 * @param {string} root the repository
 * @returns {string[]}
 */
export function vscodeApiNames(root) {
  const declarations = readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const names = [
    ...declarations.matchAll(/^\texport (?:declare )?(?:class|enum|namespace|const|let|var|function) (\w+)/gm),
  ].map((match) => match[1]);
  return [...new Set(names)];
}

/**
 * @param {string} root the repository
 * @returns {import('esbuild').Plugin}
 */
export function vscodeApiOnce(root) {
  return {
    name: 'vscode-api-once',
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, (args) =>
        args.namespace === 'vscode-api'
          ? { path: 'vscode', external: true }
          : { path: 'vscode', namespace: 'vscode-api' },
      );
      build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
        contents: `import api from 'vscode';\nexport const { ${vscodeApiNames(root).join(', ')} } = api;\n`,
        loader: 'js',
      }));
    },
  };
}
