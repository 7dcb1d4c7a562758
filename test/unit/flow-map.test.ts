/**
 * The flow map's model (every edge kind, dangling and unreachable, a
 * folder's shapes, a stable order) and its Mermaid and DOT drawings,
 * checked by their grammar against hostile names.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildFlowMap } from '../../src/core/flow-map/build';
import { dotFlowMap } from '../../src/core/flow-map/dot';
import { mermaidFlowMap } from '../../src/core/flow-map/mermaid';
import type { FlowMap, MapResource } from '../../src/core/flow-map/model';
import type { JsonObject } from '../../src/core/json';
import type { Segment } from '../../src/core/resource-kind';
import { inertLine } from '../../src/core/plain-text';
import { dotLabels, dotProblems, mermaidLabels, mermaidProblems } from '../support/diagram-syntax';

const at = (segment: Segment, id: number, name: string, values: JsonObject = {}): MapResource => ({
  segment,
  id,
  name,
  values: { name, ...values },
});

/** A tenant with one reference of every kind, as the service's details hold them. */
function everyKind(): MapResource[] {
  return [
    at('tenants', 1, 'Acme'),
    at('integrations', 1, 'Orders API'),
    at('ai_functions', 1, 'get_order'),
    at('ai_prompts', 1, 'Greeting', { next_prompt_id: 2, exit_prompt_id: 3 }),
    at('ai_prompts', 2, 'Triage', {
      function_defs: JSON.stringify([{ name: 'get_order', parameters: {} }, { name: 'own_inline_tool' }]),
      next_prompt_id: null,
    }),
    at('ai_prompts', 3, 'Handoff'),
    at('ai_actions', 1, 'Check order', { integration_id: 1 }),
    at('agents', 1, 'Chat', {
      configuration: {
        prompt: [{ id: 7, name: 'Status', function_ids: [1], integration: { id: 1, name: 'Orders API' } }],
      },
    }),
    at('intents', 1, 'orders', { ai_prompt_id: 1 }),
    at('intents', 2, 'order_status', {
      parent_id: 1,
      ai_prompt_id: 2,
      ai_actions: [{ id: 1, name: 'Check order', action_type: 3 }],
    }),
    at('datasources', 1, 'FAQ'),
  ];
}

describe('flow map: the model', () => {
  it('draws every edge kind from the resource that holds the field, and only the seven kinds are nodes', () => {
    const map = buildFlowMap(everyKind());
    assert.deepEqual(
      map.nodes.map((n) => n.id),
      [
        'integrations/1',
        'ai_prompts/1',
        'ai_prompts/2',
        'ai_prompts/3',
        'ai_functions/1',
        'ai_actions/1',
        'agents/1',
        'intents/1',
        'intents/2',
        'datasources/1',
      ],
    );
    assert.deepEqual(map.nodes[1], { id: 'ai_prompts/1', segment: 'ai_prompts', name: 'Greeting' });
    assert.deepEqual(map.edges, [
      { from: 'ai_prompts/1', to: 'ai_prompts/2', kind: 'next' },
      { from: 'ai_prompts/1', to: 'ai_prompts/3', kind: 'exit' },
      { from: 'ai_prompts/2', to: 'ai_functions/1', kind: 'function' },
      { from: 'ai_actions/1', to: 'integrations/1', kind: 'integration' },
      { from: 'agents/1', to: 'integrations/1', kind: 'integration' },
      { from: 'agents/1', to: 'ai_functions/1', kind: 'function' },
      { from: 'intents/1', to: 'ai_prompts/1', kind: 'intent' },
      { from: 'intents/2', to: 'ai_prompts/2', kind: 'intent' },
      { from: 'intents/2', to: 'intents/1', kind: 'parent' },
      { from: 'intents/2', to: 'ai_actions/1', kind: 'action' },
    ]);
    assert.deepEqual(map.problems, [], 'an inline function definition no AI function bears is no problem');
  });

  it("reads a folder's shapes: function_defs as parsed JSON, and references to the file of a resource not created yet", () => {
    const map = buildFlowMap([
      at('ai_functions', 4, 'lookup'),
      {
        segment: 'ai_prompts',
        file: 'ai_prompts/new-step.json',
        name: 'New step',
        values: { name: 'New step', function_defs: [{ name: 'lookup' }] },
      },
      at('ai_prompts', 1, 'Greeting', { next_prompt_id: 'ai_prompts/new-step.json' }),
      {
        segment: 'intents',
        file: 'intents/new.json',
        name: 'new',
        values: { ai_prompt_id: 1, parent_id: 'intents/gone.json' },
      },
    ]);
    assert.deepEqual(
      map.nodes.map((n) => n.id),
      ['ai_prompts/1', 'ai_prompts/new-step.json', 'ai_functions/4', 'intents/new.json'],
    );
    assert.deepEqual(map.edges, [
      { from: 'ai_prompts/1', to: 'ai_prompts/new-step.json', kind: 'next' },
      { from: 'ai_prompts/new-step.json', to: 'ai_functions/4', kind: 'function' },
      { from: 'intents/new.json', to: 'ai_prompts/1', kind: 'intent' },
    ]);
    assert.deepEqual(map.problems, [
      { kind: 'dangling', from: 'intents/new.json', field: 'parent_id', target: 'intents/gone.json' },
    ]);
  });

  it('finds a dangling reference in every reference field, one of the wrong kind included, and draws no edge for it', () => {
    const map = buildFlowMap([
      at('ai_prompts', 1, 'P', {
        next_prompt_id: 90,
        exit_prompt_id: 'intents/i.json',
        function_defs: '[{"name": "nobody"}]',
      }),
      {
        segment: 'intents',
        file: 'intents/i.json',
        name: 'i',
        values: { ai_prompt_id: 91, parent_id: 92, ai_actions: [{ id: 93 }] },
      },
      at('ai_actions', 1, 'A', { integration_id: 94 }),
      at('agents', 1, 'G', {
        configuration: { prompt: [{ name: 'x' }, { name: 'y', function_ids: [95, 96], integration: { id: 97 } }] },
      }),
    ]);
    assert.deepEqual(map.edges, []);
    assert.deepEqual(map.problems, [
      { kind: 'dangling', from: 'ai_prompts/1', field: 'next_prompt_id', target: 'ai_prompts/90' },
      { kind: 'dangling', from: 'ai_prompts/1', field: 'exit_prompt_id', target: 'intents/i.json' },
      { kind: 'dangling', from: 'ai_actions/1', field: 'integration_id', target: 'integrations/94' },
      {
        kind: 'dangling',
        from: 'agents/1',
        field: 'configuration.prompt[1].integration.id',
        target: 'integrations/97',
      },
      {
        kind: 'dangling',
        from: 'agents/1',
        field: 'configuration.prompt[1].function_ids[0]',
        target: 'ai_functions/95',
      },
      {
        kind: 'dangling',
        from: 'agents/1',
        field: 'configuration.prompt[1].function_ids[1]',
        target: 'ai_functions/96',
      },
      { kind: 'dangling', from: 'intents/i.json', field: 'ai_prompt_id', target: 'ai_prompts/91' },
      { kind: 'dangling', from: 'intents/i.json', field: 'parent_id', target: 'intents/92' },
      { kind: 'dangling', from: 'intents/i.json', field: 'ai_actions[0].id', target: 'ai_actions/93' },
      { kind: 'unreachable', node: 'ai_prompts/1' },
    ]);
  });

  it('calls a prompt unreachable when nothing else leads to it, only while the tenant has intents or agents', () => {
    const prompts = [
      at('ai_prompts', 1, 'Start', { next_prompt_id: 2 }),
      at('ai_prompts', 2, 'Middle'),
      at('ai_prompts', 3, 'Loop', { next_prompt_id: 3 }),
    ];
    assert.deepEqual(buildFlowMap(prompts).problems, [], 'no intents, no agents: every prompt may be an entry');
    const withAgent = buildFlowMap([...prompts, at('agents', 1, 'Chat')]);
    assert.deepEqual(
      withAgent.problems,
      [
        { kind: 'unreachable', node: 'ai_prompts/1' },
        { kind: 'unreachable', node: 'ai_prompts/3' },
      ],
      'a hand-over to itself does not reach a prompt',
    );
    const withIntent = buildFlowMap([...prompts, at('intents', 1, 'start', { ai_prompt_id: 1 })]);
    assert.deepEqual(withIntent.problems, [{ kind: 'unreachable', node: 'ai_prompts/3' }]);
  });

  it('gives the same map, edges deduplicated, whatever order the resources come in', () => {
    const resources = [
      ...everyKind(),
      at('agents', 2, 'Two elements', {
        configuration: { prompt: [{ integration: { id: 1 } }, { integration: { id: 1 } }] },
      }),
    ];
    const first = buildFlowMap(resources);
    assert.equal(first.edges.filter((e) => e.from === 'agents/2').length, 1);
    for (const order of [[...resources].reverse(), [...resources].sort((a, b) => a.name.localeCompare(b.name))]) {
      const other = buildFlowMap(order);
      assert.deepEqual(other, first);
      assert.equal(mermaidFlowMap(other), mermaidFlowMap(first));
      assert.equal(dotFlowMap(other), dotFlowMap(first));
    }
  });
});

/** Names a drawing must not be broken by: quotes, brackets, line breaks, HTML, entity codes, DOT escapes. */
const HOSTILE = [
  'Say "hi"]; end',
  'a[b]{c}(d)|e|',
  'two\nlines\r\nand\ttab',
  '<script>alert(1)</script> & <b>',
  '#quot; #35; C#',
  'back\\slash\\N "\\"',
  '`md` %% comment',
  'end',
];

function hostileMap(): FlowMap {
  return buildFlowMap([
    ...HOSTILE.map((name, i) => at('ai_prompts', i + 1, name, { next_prompt_id: i + 2 })),
    {
      segment: 'intents',
      file: 'intents/we"ird [name].json',
      name: 'x',
      values: { ai_prompt_id: 1, parent_id: 'intents/"gone".json' },
    },
  ]);
}

/** Names that would configure or cut a chart, or show as something else: directives, entities, icons, controls. */
const TRICKY = [
  '%%{x',
  '%%{init: {"theme":"dark"}}%%',
  '&lt;b&gt; &#60;i&#62; &amp;',
  'fa:fa-bomb Boom',
  'rtl \u202Egnp.exe\u2066 \u0085 \u001b[31m',
  'a\\nb \\N',
];

function trickyMap(): FlowMap {
  return buildFlowMap(TRICKY.map((name, i) => at('ai_prompts', i + 1, name, { next_prompt_id: i + 2 })));
}

describe('flow map: names that read as syntax to Mermaid or Graphviz', () => {
  const shown = [...TRICKY.map((name) => `${inertLine(name)} (AI Prompt)`), `missing: ai_prompts/${TRICKY.length + 1}`];

  it('draws one Mermaid chart whose labels read as the names: no directive, comment, entity, icon or control', () => {
    const text = mermaidFlowMap(trickyMap());
    assert.deepEqual(mermaidProblems(text), []);
    assert.deepEqual(mermaidLabels(text), shown);
    assert.match(
      text,
      /^ {2}ai_prompts_2\["#37;#37;\{init: \{#quot;theme#quot;:#quot;dark#quot;\}\}#37;#37; \(AI Prompt\)"\]$/m,
    );
    assert.match(text, /^ {2}ai_prompts_4\["fa#58;fa-bomb Boom \(AI Prompt\)"\]$/m);
  });

  it('draws one DOT digraph whose labels read as the names: no entity Graphviz decodes, no control', () => {
    const text = dotFlowMap(trickyMap());
    assert.deepEqual(dotProblems(text), []);
    assert.deepEqual(
      dotLabels(text).filter((label) => !['next', 'next_prompt_id'].includes(label)),
      shown,
    );
    assert.match(
      text,
      /^ {2}"ai_prompts\/3" \[label="&amp;lt;b&amp;gt; &amp;#60;i&amp;#62; &amp;amp; \(AI Prompt\)"\];$/m,
    );
  });

  it('draws any names as one chart of each kind, its labels reading as the names', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom(
        '%%{',
        '}%%',
        '%',
        '&lt;',
        '&#60;',
        '&amp;',
        '#quot;',
        '#35;',
        'fa:fa-car',
        ':',
        '\\',
        '\\n',
        '"',
        '`',
        '[',
        ']',
        '{',
        '}',
        '|',
        '<b>',
        '\n',
        '\r',
        '\u2028',
        '\u0085',
        '\u202E',
        'end',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (names) => {
        const map = buildFlowMap(names.map((name, i) => at('ai_prompts', i + 1, name)));
        const shown = names.map((name) => `${inertLine(name)} (AI Prompt)`);
        const mermaid = mermaidFlowMap(map);
        assert.deepEqual(mermaidProblems(mermaid), [], mermaid);
        assert.deepEqual(mermaidLabels(mermaid), shown, mermaid);
        const dot = dotFlowMap(map);
        assert.deepEqual(dotProblems(dot), [], dot);
        assert.deepEqual(dotLabels(dot), shown, dot);
      }),
      { numRuns: 1_000 },
    );
  });

  it('the checks refuse what a tool would read as a directive, an entity, an icon or a control', () => {
    assert.notDeepEqual(mermaidProblems('flowchart LR\n  a["%%{x"]\n'), [], 'a directive inside a label');
    assert.notDeepEqual(
      mermaidProblems('%%{init: {"theme":"dark"}}%%\nflowchart LR\n  a["x"]\n'),
      [],
      'a directive line',
    );
    assert.notDeepEqual(mermaidProblems('flowchart LR\n  a["fa:fa-bomb"]\n'), [], 'an icon');
    assert.notDeepEqual(mermaidProblems('flowchart LR\n  a["back\\\\nslash"]\n'), [], 'a backslash');
    assert.notDeepEqual(mermaidProblems('flowchart LR\n  a["\u202Ex"]\n'), [], 'a bidirectional override');
    assert.notDeepEqual(dotProblems('digraph "m" {\n  "a" [label="&lt;b&gt;"];\n}\n'), [], 'an entity');
    assert.notDeepEqual(dotProblems('digraph "m" {\n  "a" [label="\u0085x"];\n}\n'), [], 'a control character');
  });
});

describe('flow map: Mermaid', () => {
  it('is a flowchart of node, edge and class statements whatever the names hold, every name escaped', () => {
    const text = mermaidFlowMap(hostileMap());
    assert.deepEqual(mermaidProblems(text), []);
    assert.match(text, /^ {2}ai_prompts_1\["Say #quot;hi#quot;\]; end \(AI Prompt\)"\]$/m);
    assert.match(
      text,
      /^ {2}ai_prompts_3\["two#92;nlines#92;r#92;nand#92;ttab \(AI Prompt\)"\]$/m,
      'line breaks are escapes, and a backslash an entity code',
    );
    assert.match(
      text,
      /^ {2}ai_prompts_4\["#lt;script#gt;alert\(1\)#lt;\/script#gt; #amp; #lt;b#gt; \(AI Prompt\)"\]$/m,
    );
    assert.match(
      text,
      /^ {2}ai_prompts_5\["#35;quot; #35;35; C#35; \(AI Prompt\)"\]$/m,
      "a name's own entity code is not decoded",
    );
    assert.match(text, /^ {2}ai_prompts_7\["#96;md#96; #37;#37; comment \(AI Prompt\)"\]$/m);
    assert.match(text, /^ {2}intents_we_ird__name__json\["x \(Intent\)"\]$/m, 'ids are sanitised');
  });

  it('draws a dangling reference dashed and red to a missing node', () => {
    const text = mermaidFlowMap(hostileMap());
    const edges = text.split('\n').filter((l) => l.includes('-->')).length;
    assert.match(text, /^ {2}missing_ai_prompts_9\["missing: ai_prompts\/9"\]$/m);
    assert.match(text, /^ {2}ai_prompts_8 -\.->\|"next_prompt_id"\| missing_ai_prompts_9$/m);
    assert.match(text, /^ {2}intents_we_ird__name__json -\.->\|"parent_id"\| missing_intents__gone__json$/m);
    assert.match(text, /^ {2}missing_intents__gone__json\["missing: intents\/#quot;gone#quot;\.json"\]$/m);
    assert.match(text, /^ {2}class missing_ai_prompts_9,missing_intents__gone__json missing$/m);
    assert.match(
      text,
      new RegExp(`^  linkStyle ${edges},${edges + 1} stroke:red$`, 'm'),
      'the dashed links are numbered after the edges',
    );
  });

  it('gives ids that would read alike their own numbers, and marks changed nodes with the class changed', () => {
    const map = buildFlowMap([
      { segment: 'ai_prompts', file: 'ai_prompts/a-b.json', name: 'one', values: {} },
      { segment: 'ai_prompts', file: 'ai_prompts/a_b.json', name: 'two', values: {} },
    ]);
    const text = mermaidFlowMap(map, { changed: new Set(['ai_prompts/a_b.json']) });
    assert.deepEqual(mermaidProblems(text), []);
    assert.match(text, /^ {2}ai_prompts_a_b_json\["one \(AI Prompt\)"\]$/m);
    assert.match(text, /^ {2}ai_prompts_a_b_json_2\["two \(AI Prompt\)"\]$/m);
    assert.match(text, /^ {2}class ai_prompts_a_b_json_2 changed$/m);
    assert.doesNotMatch(mermaidFlowMap(map), /changed/, 'no mark, no class');
  });
});

describe('flow map: DOT', () => {
  it('is a digraph of statements ending in ";" whatever the names hold, ids and labels quoted and escaped', () => {
    const text = dotFlowMap(hostileMap(), { changed: new Set(['ai_prompts/2']) });
    assert.deepEqual(dotProblems(text), []);
    assert.match(text, /^ {2}"ai_prompts\/1" \[label="Say \\"hi\\"\]; end \(AI Prompt\)"\];$/m);
    assert.match(
      text,
      /^ {2}"ai_prompts\/6" \[label="back\\\\slash\\\\N \\"\\\\\\" \(AI Prompt\)"\];$/m,
      'a backslash cannot escape the quote or read as \\N',
    );
    assert.match(text, /^ {2}"ai_prompts\/3" \[label="two\\\\nlines\\\\r\\\\nand\\\\ttab \(AI Prompt\)"\];$/m);
    assert.match(
      text,
      /^ {2}"ai_prompts\/2" \[label="a\[b\]\{c\}\(d\)\|e\| \(AI Prompt\)", style=bold, penwidth=3\];$/m,
      'a changed node has a bold outline',
    );
    assert.match(text, /^ {2}"ai_prompts\/1" -> "ai_prompts\/2" \[label="next"\];$/m);
  });

  it('draws a dangling reference dashed and red to a missing node', () => {
    const text = dotFlowMap(hostileMap());
    assert.match(
      text,
      /^ {2}"missing:ai_prompts\/9" \[label="missing: ai_prompts\/9", style=dashed, color=red, fontcolor=red\];$/m,
    );
    assert.match(
      text,
      /^ {2}"ai_prompts\/8" -> "missing:ai_prompts\/9" \[label="next_prompt_id", style=dashed, color=red, fontcolor=red\];$/m,
    );
    assert.match(
      text,
      /^ {2}"intents\/we\\"ird \[name\]\.json" -> "missing:intents\/\\"gone\\"\.json" \[label="parent_id", style=dashed, color=red, fontcolor=red\];$/m,
    );
    assert.doesNotMatch(text, /bold/, 'no mark, no bold outline');
  });

  it('the syntax checks themselves refuse a broken drawing', () => {
    assert.notDeepEqual(dotProblems('digraph "m" {\n  "a" [label="x"]\n}\n'), [], 'a statement without ";"');
    assert.notDeepEqual(dotProblems('digraph "m" {\n  "a" [label="x\\"];\n}\n'), [], 'an escaped closing quote');
    assert.notDeepEqual(dotProblems('digraph "m" {\n  "a" -> "b";\n'), [], 'an unclosed brace and an undeclared node');
    assert.notDeepEqual(mermaidProblems('flowchart LR\n  a["say "hi""]\n'), [], 'a quote inside a label');
    assert.notDeepEqual(
      mermaidProblems('flowchart LR\n  a["x"]\n  a --> b\n'),
      [],
      'an edge without its label to an undeclared node',
    );
  });
});
