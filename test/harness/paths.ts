import * as path from 'node:path';

/** The repository root; this file compiles to out/test/harness/, three levels below it. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Git-ignored folder for logs and screenshots that outlive a test run. */
export const testOutputDir = path.join(repoRoot, 'test-output');

/** Where tsc puts the compiled tests (see tsconfig.json's outDir). */
export const compiledTestsDir = path.join(repoRoot, 'out', 'test');
