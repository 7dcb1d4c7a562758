/**
 * A `.prompttest.json` suite (contract: "Prompt test suites"): its target, its
 * cases and what each expects. suite-parser.ts reads one from JSON with
 * comments.
 */
import { withSuffix } from '../file-names';
import type { TextRange } from '../json-document';
import { OUTPUTS } from './expect-problems';
import type { JsonObject } from '../json';
import type { Criterion, Simulation } from './simulated-case';
import type { VariantSpec } from '../variants/variant-spec';

export const SUITE_SUFFIX = '.prompttest.json';

/** A chosen path as a suite's: ending in `.prompttest.json` once, whatever a save dialog added or left out. */
export function suitePath(chosen: string): string {
  return withSuffix(chosen, SUITE_SUFFIX);
}

export interface SuiteTarget {
  connection?: string;
  tenantId?: number;
}

/** One turn of a conversation case (contract: "Conversations"). */
export interface Turn {
  prompt_text: string;
  prompt_params?: JsonObject;
  /** The output fields and their assertions, as a case's `expect`, without `prompt`. */
  expect: JsonObject;
  /** The prompt that must have answered the turn, by name or id. */
  prompt?: string | number;
  /** Where the turn is in the file. */
  range: TextRange;
}

export interface TestCase {
  name: string;
  /** test_prompt inputs. */
  prompt_text?: string;
  prompt_params?: JsonObject;
  /** execute_action inputs. */
  action?: string;
  params?: JsonObject;
  /** A conversation's turns, instead of `prompt_text`; the case's prompt_params go with turn 1. */
  turns?: Turn[];
  /** A simulated call, instead of `prompt_text` or `turns`: another prompt plays the caller. */
  simulate?: Simulation;
  /** What a simulated call is judged against. */
  criteria?: Criterion[];
  /** How many times each judged criterion is judged per call (odd; the majority decides). */
  judgeRepeat?: number;
  /** Empty for a conversation or a simulated call: its turns or criteria hold what it expects. */
  expect: JsonObject;
  maxMs?: number;
  /** The longest the 95th percentile of the runs' durations may be, in milliseconds. */
  maxP95Ms?: number;
  repeat: number;
  minPassRate: number;
  /** Where the case is in the file. */
  range: TextRange;
}

/** How a suite names a resource (its `prompt`, a turn's `expect.prompt`): a number is an id; a text is a name, or an id written as text. */
export function refersTo(ref: string | number, resource: { id?: number; name?: string }): boolean {
  return typeof ref === 'number'
    ? resource.id === ref
    : resource.name === ref || (resource.id !== undefined && String(resource.id) === ref);
}

export interface Suite {
  target?: SuiteTarget;
  /** The prompt (test_prompt cases) or the integration (execute_action cases), by name or id. */
  /** `range`: where its file names it, for a problem about that name. */
  resource: { segment: 'ai_prompts' | 'integrations'; ref: string | number; range?: TextRange };
  cases: TestCase[];
  /** Versions of the prompt every case also runs on (contract: "Variant lab"); none when absent. */
  variants?: VariantSpec[];
}

export interface SuiteProblem {
  path: Array<string | number>;
  message: string;
  range: TextRange;
}

export { OUTPUTS };
/** A suite's own keys, as its schema (schemas/prompttest.schema.json) has them. */
export const SUITE_KEYS: readonly string[] = ['$schema', 'target', 'prompt', 'integration', 'variants', 'cases'];
export const CASE_KEYS: readonly string[] = [
  'name',
  'prompt_text',
  'prompt_params',
  'turns',
  'simulate',
  'criteria',
  'judgeRepeat',
  'action',
  'params',
  'expect',
  'maxMs',
  'maxP95Ms',
  'repeat',
  'minPassRate',
];
export const TURN_KEYS: readonly string[] = ['prompt_text', 'prompt_params', 'expect'];
