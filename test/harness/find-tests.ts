import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiledTestsDir, repoRoot } from './paths';

/**
 * The compiled `*.test.js` of every `test/<suite>/**\/*.test.ts`, in a stable order.
 * Listed from the sources, not from out/, because tsc never deletes the output of a removed test.
 * CONVAI_TEST_FILES (comma-separated parts of file names) narrows a run while working on a few tests.
 */
export function findTestFiles(suite: string): string[] {
  const sourceDir = path.join(repoRoot, 'test', suite);
  if (!fs.existsSync(sourceDir)) return [];
  return fs
    .readdirSync(sourceDir, { recursive: true, encoding: 'utf8' })
    .filter((relative) => relative.endsWith('.test.ts') && chosen(relative))
    .sort()
    .map((relative) => path.join(compiledTestsDir, suite, relative.replace(/\.ts$/, '.js')));
}

function chosen(relative: string): boolean {
  const parts = (process.env.CONVAI_TEST_FILES ?? '').split(',').filter((part) => part !== '');
  return parts.length === 0 || parts.some((part) => relative.includes(part));
}
