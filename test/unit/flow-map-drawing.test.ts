import * as assert from 'node:assert/strict';
import { missingLabel, missingTargets, nodeLabel } from '../../src/core/flow-map/drawing';

describe('flow map drawing labels', () => {
  it('labels a node with its name and kind on one line, its line breaks, controls and bidirectional controls written as escapes', () => {
    assert.equal(
      nodeLabel({ id: 'ai_prompts/1', segment: 'ai_prompts', name: 'Order\nTriage\u2028\u0085\u202E' }),
      'Order\\nTriage\\u2028\\u0085\\u202E (AI Prompt)',
    );
    assert.equal(missingLabel('ai_prompts/9\r\n'), 'missing: ai_prompts/9\\r\\n');
  });

  it('lists each dangling target once, in the order the problems name them', () => {
    const map = {
      nodes: [],
      edges: [],
      problems: [
        { kind: 'dangling' as const, from: 'intents/1', field: 'ai_prompt_id', target: 'ai_prompts/9' },
        { kind: 'unreachable' as const, node: 'ai_prompts/2' },
        { kind: 'dangling' as const, from: 'ai_prompts/3', field: 'next_prompt_id', target: 'ai_prompts/8' },
        { kind: 'dangling' as const, from: 'ai_prompts/4', field: 'next_prompt_id', target: 'ai_prompts/9' },
      ],
    };
    assert.deepEqual(missingTargets(map), ['ai_prompts/9', 'ai_prompts/8']);
  });
});
