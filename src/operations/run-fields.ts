/**
 * The fields of a run the results panel shows and the page may ask to copy: apart from the rendering
 * (render.ts), which loads at the panel's first render, so that the panel's messages can check them at once.
 */
import type { Operation } from '../core/history';

/** The inputs and outputs of each operation (service API 4.2 and 4.3), in the order shown. */
export const FIELDS = {
  test_prompt: {
    inputs: ['prompt_text', 'prompt_params'],
    outputs: ['response', 'altered_prompt', 'next_prompt_id', 'next_prompt_params'],
  },
  execute_action: { inputs: ['action', 'params'], outputs: ['result', 'status'] },
  send_request: { inputs: ['arguments'], outputs: ['status', 'headers', 'body', 'request'] },
} as const satisfies Record<Operation, { inputs: readonly string[]; outputs: readonly string[] }>;

type OperationFields = (typeof FIELDS)[Operation];
/** A field the page may ask to copy. */
export type RunField = OperationFields['inputs'][number] | OperationFields['outputs'][number];

export const RUN_FIELDS: ReadonlySet<string> = new Set(
  Object.values(FIELDS).flatMap((f) => [...f.inputs, ...f.outputs]),
);
