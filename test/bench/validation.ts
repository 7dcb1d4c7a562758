// Validation of a large prompt document against reading it: validateDocument (the check behind every save and the
// live problems) beside JSON.parse of the document's text. Plain Node on the compiled core, no VS Code needed.
import { validateDocument } from '../../src/core/validation';
import type { Pair } from './protocol';

const functionCount = 200;
const systemBytes = 200 * 1024;

function functionDefinition(n: number): object {
  return {
    type: 'function',
    name: `lookup_record_${n}`,
    description: `Looks up record kind ${n} by its number and returns its status, owner and history.`,
    parameters: {
      type: 'object',
      properties: {
        record_id: { type: 'string', description: 'The record number, e.g. R-10023' },
        include_history: { type: 'boolean', description: 'Whether to return the change history too' },
        limit: { type: 'integer', description: 'At most this many history entries' },
      },
      required: ['record_id'],
    },
  };
}

/** A prompt's detail object as the service returns it: long system instructions and many function definitions. */
export function largePromptText(): string {
  const paragraph = 'When the customer asks about {{topic}}, answer briefly, cite the policy and offer the next step. ';
  const detail = {
    id: 1,
    name: 'Large Prompt',
    description: 'A prompt the size of the largest ones seen in practice',
    prompt_type: 1,
    group: 'support',
    mode: 1,
    user_prompt: 'Help {{customer_name}} with {{topic}}.',
    system: paragraph.repeat(Math.ceil(systemBytes / paragraph.length)),
    assistant: null,
    user_name: null,
    temparature: 0.7,
    max_tokens: 800,
    ai_model: 'gpt-4o',
    settings: '{"language":"en"}',
    function_defs: JSON.stringify(Array.from({ length: functionCount }, (_, n) => functionDefinition(n))),
    next_prompt_id: null,
    exit_prompt_id: null,
    prompt_mode: 1,
    voice: null,
    initial_announcement: null,
    initial_response: null,
    tenant_id: 1,
  };
  return `${JSON.stringify(detail, null, 2)}\n`;
}

/**
 * The process's CPU time per call, not the wall clock: both are synchronous computation, and on a machine busy with
 * other work the wall clock counts the time this process waits for a core, which swamped the ratio.
 */
function cpuMsPerCall(times: number, work: () => unknown): number {
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / times;
}

/** CPU milliseconds per call, in pairs of batches; the schema's compile (once per kind and window) is warmed up first. */
export function measureValidation(samples = 100, batch = 5): Pair[] {
  const text = largePromptText();
  const value: unknown = JSON.parse(text);
  const problems = validateDocument('ai_prompts', value);
  if (problems.length > 0)
    throw new Error(
      `the large prompt document is not valid, so its validation would not be typical: ${problems[0]?.message}`,
    );
  const candidate = (): unknown => validateDocument('ai_prompts', value);
  const floor = (): unknown => JSON.parse(text);
  for (let i = 0; i < 5; i++) {
    candidate();
    floor();
  }
  return Array.from({ length: samples }, (_, i) => {
    // Alternating who goes first, so that neither always runs after the other's garbage.
    if (i % 2 === 0) {
      const c = cpuMsPerCall(batch, candidate);
      return { candidate: c, floor: cpuMsPerCall(batch, floor) };
    }
    const f = cpuMsPerCall(batch, floor);
    return { candidate: cpuMsPerCall(batch, candidate), floor: f };
  });
}
