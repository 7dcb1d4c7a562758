// @ts-check
import js from '@eslint/js';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const coreDir = path.join(import.meta.dirname, 'src', 'core');

/**
 * The pure core's edge in one rule: a core module imports only core modules,
 * Node built-ins and packages. A path pattern of `no-restricted-imports`
 * cannot say this, because whether `../x` leaves the core depends on how deep
 * the importing file sits; here the specifier is resolved against the file.
 */
const coreBoundary = {
  meta: { type: 'problem', schema: [], messages: { outside: "src/core is closed: '{{source}}' is outside it." } },
  create(context) {
    const fileDir = path.dirname(context.filename);
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') {
        return;
      }
      const specifier = source.value;
      // A bare specifier names a package or a Node built-in: allowed (`vscode` is banned by name below).
      if (!specifier.startsWith('.') && !path.isAbsolute(specifier)) {
        return;
      }
      const fromCore = path.relative(coreDir, path.resolve(fileDir, specifier));
      if (fromCore.startsWith('..') || path.isAbsolute(fromCore)) {
        context.report({ node: source, messageId: 'outside', data: { source: specifier } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          check(node.arguments[0]?.type === 'SpreadElement' ? undefined : node.arguments[0]);
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'src/core/generated/**', 'node_modules/**', '.vscode-test/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'No focused tests.' },
      ],
    },
  },
  {
    // The pure core must stay testable in plain Node: `vscode` cannot reach it.
    files: ['src/core/**/*.ts'],
    plugins: { local: { rules: { 'core-boundary': coreBoundary } } },
    rules: {
      'local/core-boundary': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/core is pure: no vscode imports.' }] },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
