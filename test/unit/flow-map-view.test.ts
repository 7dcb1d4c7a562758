/**
 * The flow map panel's two seams that run without VS Code: the model as the
 * page draws it, and the page's messages, which the extension trusts only
 * once they have the shape it expects.
 */
import * as assert from 'node:assert/strict';
import type { FlowMap } from '../../src/core/flow-map/model';
import { parsePageMessage } from '../../src/flow-map/messages';
import { mapView } from '../../src/flow-map/view';

const map: FlowMap = {
  nodes: [
    { id: 'ai_prompts/1', segment: 'ai_prompts', name: 'Greeting <b>' },
    { id: 'ai_prompts/2', segment: 'ai_prompts', name: 'Orphan' },
    { id: 'intents/1', segment: 'intents', name: 'hello' },
  ],
  edges: [{ from: 'intents/1', to: 'ai_prompts/1', kind: 'intent' }],
  problems: [
    { kind: 'dangling', from: 'ai_prompts/1', field: 'next_prompt_id', target: 'ai_prompts/99' },
    { kind: 'unreachable', node: 'ai_prompts/2' },
  ],
};

describe('flow map panel: the view the page draws', () => {
  it('names each kind and words each problem after the resource it is about', () => {
    const view = mapView(map, 'Flow Map: acme');
    assert.deepEqual(
      view.nodes.map((n) => n.kind),
      ['AI Prompt', 'AI Prompt', 'Intent'],
    );
    assert.deepEqual(view.dangling, [{ from: 'ai_prompts/1', field: 'next_prompt_id', target: 'ai_prompts/99' }]);
    assert.deepEqual(view.problems, [
      {
        node: 'ai_prompts/1',
        text: 'Greeting <b>: next_prompt_id names ai_prompts/99, which the tenant does not hold',
      },
      { node: 'ai_prompts/2', text: 'Orphan: unreachable, no intent, agent or prompt leads to it' },
    ]);
    assert.equal(view.focus, undefined);
  });

  it('centres a node the map holds, and drops one it does not', () => {
    assert.equal(mapView(map, 't', 'ai_prompts/2').focus, 'ai_prompts/2');
    assert.equal('focus' in mapView(map, 't', 'ai_prompts/404'), false);
  });
});

describe("flow map panel: the page's messages", () => {
  it('passes the messages the page sends, with only their known fields', () => {
    assert.deepEqual(parsePageMessage({ type: 'drawn', seq: 2, nodes: 40, extra: 'x' }), {
      type: 'drawn',
      seq: 2,
      nodes: 40,
    });
    assert.deepEqual(parsePageMessage({ type: 'open', node: 'ai_prompts/1' }), { type: 'open', node: 'ai_prompts/1' });
    assert.deepEqual(parsePageMessage({ type: 'copyMermaid' }), { type: 'copyMermaid' });
    assert.deepEqual(parsePageMessage({ type: 'exportSvg', svg: '<svg/>' }), { type: 'exportSvg', svg: '<svg/>' });
  });

  it('drops anything else: unknown types, wrong field types, an export no page would make', () => {
    for (const message of [
      null,
      'ready',
      { type: 'run' },
      { type: 'open', node: 1 },
      { type: 'drawn', nodes: 3 },
      { type: 'exportSvg', svg: 'x'.repeat(32 * 1024 * 1024 + 1) },
    ]) {
      assert.equal(parsePageMessage(message), undefined, JSON.stringify(message)?.slice(0, 60));
    }
  });
});
