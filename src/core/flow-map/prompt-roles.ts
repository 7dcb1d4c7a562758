/**
 * The parts a tenant's own tests give its prompts on the map. A prompt that a
 * suite's simulated call has play the caller, or that judges a call (a
 * criterion's `judge`, a judge file's `judge`), is a test prompt: no intent
 * or prompt of the assistant is meant to lead to it. A prompt that a suite's
 * conversation or simulated call starts on is an opener: calls begin there.
 * Neither is unreachable. The service says nothing of either (its API names
 * no entry prompt), so the workspace's test files are the only witness.
 */
import type { JudgeFile } from '../prompt-tests/judge-file';
import { isJudged } from '../prompt-tests/simulated-case';
import { refersTo, type Suite } from '../prompt-tests/suite';

export type PromptRole = 'test' | 'opener';

/** What each role means, as the map's legend and tooltips say it. */
export const ROLE_TEXT: Readonly<Record<PromptRole, string>> = {
  test: 'test prompt: used by suites as a caller or judge',
  opener: "opener: suites' calls start here",
};

/** The test files of the map's tenant (the shell leaves out those that run against another). */
export interface TenantTests {
  suites: ReadonlyArray<Pick<Suite, 'resource' | 'cases'>>;
  judges: ReadonlyArray<Pick<JudgeFile, 'judge'>>;
}

/** The prompts the tests name for each role, by name or id as the files name them. */
export interface PromptUses {
  test: ReadonlyArray<string | number>;
  opener: ReadonlyArray<string | number>;
}

export const NO_USES: PromptUses = { test: [], opener: [] };

export function promptUses({ suites, judges }: TenantTests): PromptUses {
  const test: Array<string | number> = judges.map((j) => j.judge);
  const opener: Array<string | number> = [];
  for (const suite of suites) {
    if (suite.resource.segment !== 'ai_prompts') continue;
    // A single-turn case tests the prompt alone; a conversation or a call is sent to it first, as a caller would be.
    if (suite.cases.some((c) => c.turns !== undefined || c.simulate !== undefined)) opener.push(suite.resource.ref);
    for (const { simulate, criteria = [] } of suite.cases) {
      if (simulate) test.push(simulate.caller);
      for (const criterion of criteria) if (isJudged(criterion)) test.push(criterion.judge);
    }
  }
  return { test, opener };
}

/**
 * The role of a prompt (by its id, where it has one, and its name), or undefined for a prompt of the assistant alone.
 * A prompt calls start on is an opener first: it belongs to the assistant, whatever else a test does with it.
 */
export function promptRole(prompt: { id?: number; name: string }, uses: PromptUses): PromptRole | undefined {
  if (uses.opener.some((ref) => refersTo(ref, prompt))) return 'opener';
  if (uses.test.some((ref) => refersTo(ref, prompt))) return 'test';
  return undefined;
}
