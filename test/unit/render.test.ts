import * as assert from 'node:assert/strict';
import type { RunOutcome, RunRecord } from '../../src/core/history';
import type { InputsForm } from '../../src/core/inputs-form';
import { escapeHtml } from '../../src/operations/html';
import { parsePanelRequest } from '../../src/operations/panel-messages';
import { renderResults, type PanelAssets, type PanelModel } from '../../src/operations/render';

const RESOURCE = 'convai://local/tenants/1/ai_prompts/3.json';
const ASSETS: PanelAssets = {
  nonce: 'bm9uY2Utb25lLXRlc3Q+/w==',
  cspSource: 'https://webview.test',
  scriptUri: 'https://webview.test/media/results.js',
  styleUri: 'https://webview.test/media/results.css',
};

const XSS = {
  script: '<script>alert(1)</script>',
  img: '<img src=x onerror=alert(1)>',
  svg: '"><svg onload=alert(1)>',
  command: '[x](command:workbench.action.quit) and command:workbench.action.quit',
};
const XSS_TEXT = Object.values(XSS).join('\n');

function promptRun(id: string, outcome: RunOutcome, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    resource: RESOURCE,
    resourceLabel: 'AI Prompt 3 of tenant 1 on local',
    operation: 'test_prompt',
    startedAt: '2025-03-04T10:20:30.000Z',
    durationMs: 1234,
    inputs: { prompt_text: 'Hello there', prompt_params: { customer: 'Ada' } },
    outcome,
    version: { savedHash: '1a2b3c4d', unsavedChanges: false },
    ...overrides,
  };
}

function actionRun(id: string, outcome: RunOutcome): RunRecord {
  return {
    ...promptRun(id, outcome),
    operation: 'execute_action',
    inputs: { action: 'send_sms', params: { to: '+1555' } },
  };
}

const okPrompt = (response: string): RunOutcome => ({
  kind: 'ok',
  response: { response, altered_prompt: 'altered', next_prompt_id: 7, next_prompt_params: { step: 2 } },
});

function render(model: Partial<PanelModel> & Pick<PanelModel, 'runs'>, assets: PanelAssets = ASSETS): string {
  return renderResults({ resource: RESOURCE, resourceLabel: 'AI Prompt 3 of tenant 1 on local', ...model }, assets);
}

/** Every start tag in the document; escaped text holds no `<`, so these are all real elements. */
function tags(doc: string): string[] {
  return doc.match(/<[a-zA-Z][^>]*>/g) ?? [];
}

function cspOf(doc: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(doc);
  assert.ok(match?.[1], 'a CSP meta tag');
  return match[1];
}

describe('results panel: service text stays text', () => {
  const run = promptRun('run-1', okPrompt(XSS_TEXT), {
    inputs: { prompt_text: XSS.img, prompt_params: { note: XSS.svg } },
  });
  const doc = render({ resourceLabel: XSS.script, runs: [run], selected: run });

  it('escapes markup in responses, inputs and the resource label', () => {
    assert.ok(!doc.includes('<script>alert'), 'no live script');
    assert.ok(!/<img/i.test(doc), 'no img element');
    assert.ok(!/<svg/i.test(doc), 'no svg element');
    assert.ok(doc.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(doc.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(doc.includes('&quot;&gt;&lt;svg onload=alert(1)&gt;'));
    assert.ok(doc.includes('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>'));
  });

  it('has no event handler attribute and no link at all', () => {
    for (const tag of tags(doc)) assert.ok(!/\son[a-z]+\s*=/i.test(tag), `no inline handler in ${tag}`);
    assert.ok(!/<a[\s>]/i.test(doc), 'no anchor');
    const withHref = tags(doc).filter((tag) => /\shref=/i.test(tag));
    assert.deepEqual(withHref, [
      `<link rel="stylesheet" nonce="${escapeHtml(ASSETS.nonce)}" href="${ASSETS.styleUri}">`,
    ]);
  });

  it('shows a command: link as plain text inside a <pre>', () => {
    assert.match(doc, /<pre[^>]*>\n[^<]*\[x\]\(command:workbench\.action\.quit\)[^<]*<\/pre>/);
  });

  it('escapes run ids in data attributes', () => {
    const evil = promptRun('"><img src=x onerror=alert(1)>', okPrompt('fine'));
    const page = render({ runs: [evil], selected: evil });
    assert.ok(!/<img/i.test(page));
    assert.ok(page.includes('data-run="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"'));
  });

  it('cuts history previews before escaping, so no entity is split', () => {
    const long = promptRun('long', okPrompt(`${'x'.repeat(76)}<b>&amp;</b>`));
    const page = render({ runs: [long] });
    const row = /<td class="preview">(x{76}[^<]*)<\/td>/.exec(page);
    assert.equal(row?.[1], `${'x'.repeat(76)}&lt;b&gt;…`);
  });

  it('escapes all five special characters', () => {
    assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('results panel: content security policy', () => {
  const run = promptRun('run-1', okPrompt('hi'));

  it('allows nothing by default and scripts only with the nonce', () => {
    const doc = render({ runs: [run], selected: run });
    const csp = cspOf(doc);
    assert.match(csp, /^default-src 'none';/);
    assert.ok(csp.includes(`script-src 'nonce-${ASSETS.nonce}';`));
    assert.ok(csp.includes(`style-src ${ASSETS.cspSource} 'nonce-${ASSETS.nonce}';`));
    assert.ok(!csp.includes('unsafe'));
    const scripts = tags(doc).filter((tag) => tag.startsWith('<script'));
    assert.deepEqual(scripts, [`<script nonce="${ASSETS.nonce}" src="${ASSETS.scriptUri}">`]);
    assert.match(doc, /<script [^>]*><\/script>/, 'the script element has no inline code');
    assert.ok(!/\sstyle=/i.test(doc), 'no style attributes, which the CSP would block');
  });

  it('uses the nonce of each render', () => {
    const first = render({ runs: [run] }, { ...ASSETS, nonce: 'Zmlyc3Q=' });
    const second = render({ runs: [run] }, { ...ASSETS, nonce: 'c2Vjb25k' });
    assert.ok(cspOf(first).includes("'nonce-Zmlyc3Q='") && first.includes('<script nonce="Zmlyc3Q="'));
    assert.ok(cspOf(second).includes("'nonce-c2Vjb25k'") && second.includes('<script nonce="c2Vjb25k"'));
    assert.ok(!second.includes('Zmlyc3Q='));
  });
});

describe('results panel: states of a run', () => {
  it('shows a successful test_prompt with its inputs, outputs and buttons', () => {
    const run = promptRun('run-1', okPrompt('The answer'));
    const doc = render({ runs: [run], selected: run });
    assert.ok(doc.includes('Succeeded'));
    assert.ok(doc.includes('Ran saved version <code>1a2b3c4d</code>.'));
    for (const name of [
      'prompt_text',
      'prompt_params',
      'response',
      'altered_prompt',
      'next_prompt_id',
      'next_prompt_params',
    ]) {
      assert.ok(doc.includes(`data-action="copy" data-run="run-1" data-field="${name}"`), `Copy ${name}`);
    }
    assert.ok(doc.includes('data-action="openPrompt" data-run="run-1"'));
    assert.ok(doc.includes('>Open prompt 7</button>'), 'by id while the name is not known');
    const named = render({ runs: [run], selected: run, promptNames: { 7: 'Order <Resolution>' } });
    assert.ok(named.includes('>Open &quot;Order &lt;Resolution&gt;&quot; (prompt 7)</button>'), 'by name, as text');
    assert.ok(doc.includes('data-action="rerun" data-run="run-1"'));
    assert.ok(doc.includes('data-action="saveAsTestCase" data-run="run-1"'), 'a run can become a test case');
    assert.ok(doc.includes('{\n  &quot;step&quot;: 2\n}'), 'next_prompt_params as pretty JSON');
  });

  it('says a run had unsaved changes that did not run', () => {
    const run = promptRun('run-1', okPrompt('x'), { version: { savedHash: 'feedbeef', unsavedChanges: true } });
    const doc = render({ runs: [run], selected: run });
    assert.ok(
      doc.includes('Ran saved version <code>feedbeef</code>; the editor had unsaved changes that did not run.'),
    );
  });

  it('shows an action that reported a failed status', () => {
    const run = actionRun('run-2', { kind: 'failed-status', response: { result: 'no credit', status: 'error' } });
    const doc = render({ runs: [run], selected: run });
    assert.ok(doc.includes('Failed: status &quot;error&quot;'));
    assert.ok(doc.includes('data-field="result"') && doc.includes('data-field="status"'));
    assert.ok(doc.includes('data-field="action"') && doc.includes('data-field="params"'));
  });

  it('shows an HTTP error with its message, and a cancelled run', () => {
    const failed = promptRun('run-3', { kind: 'error', status: 502, message: 'local: bad gateway <upstream>' });
    const doc = render({ runs: [failed], selected: failed });
    assert.ok(doc.includes('HTTP error 502: local: bad gateway &lt;upstream&gt;'));
    assert.ok(doc.includes('No outputs: the request failed.'));
    const cancelled = promptRun('run-4', { kind: 'cancelled' });
    const page = render({ runs: [cancelled], selected: cancelled });
    assert.ok(page.includes('Cancelled') && page.includes('No outputs: the run was cancelled.'));
  });

  it('shows a run in progress in place of the selected run: its inputs, Cancel in the status line, no Run again', () => {
    const run = promptRun('run-1', okPrompt('x'));
    const running = {
      operation: 'test_prompt' as const,
      startedAt: '2025-03-04T10:25:00.000Z',
      inputs: { prompt_text: 'Now <this>' },
    };
    const doc = render({ runs: [run], selected: run, running });
    assert.match(
      doc,
      /<p class="status outcome-running" role="status" aria-live="polite">Running test_prompt…<\/p>\n<button [^>]*data-action="cancel"/,
    );
    assert.ok(doc.includes('\nNow &lt;this&gt;</pre>'), 'the running inputs, as text');
    assert.ok(doc.includes('Waiting for the answer.'));
    assert.ok(!doc.includes('data-action="rerun"') && !doc.includes('data-action="edit"'), 'nothing to run again yet');
    assert.ok(!doc.includes('data-action="copy"'), 'nothing recorded to copy yet');
    assert.match(
      doc,
      /<button [^>]*data-action="select" data-run="run-1"[^>]* disabled>/,
      'the history waits for the run',
    );
    assert.ok(!doc.includes('aria-current'), 'no run of the history is the one shown');
  });
});

describe('results panel: one status line', () => {
  const run = promptRun('run-1', okPrompt('x'));
  const states: Record<string, Partial<PanelModel> & Pick<PanelModel, 'runs'>> = {
    'no runs': { runs: [] },
    'a run shown': { runs: [run], selected: run },
    'none chosen': { runs: [run] },
    running: {
      runs: [run],
      selected: run,
      running: { operation: 'test_prompt', startedAt: run.startedAt, inputs: run.inputs },
    },
    'a form open': { runs: [run], selected: run, form: promptForm() },
  };

  it('has exactly one role="status" in every state', () => {
    for (const [name, model] of Object.entries(states))
      assert.equal(render(model).match(/role="status"/g)?.length, 1, name);
  });

  it("says the shown run's outcome and duration once, its time only in the heading", () => {
    const doc = render({ runs: [run], selected: run });
    assert.match(doc, /<p class="status outcome-ok" role="status" aria-live="polite">Succeeded \(1\.2 s\)<\/p>/);
    const section = doc.slice(
      doc.indexOf('<section aria-labelledby="run-heading">'),
      doc.indexOf('<section aria-labelledby="history-heading">'),
    );
    assert.equal(section.match(/Succeeded/g)?.length, 1, 'the outcome once');
    assert.equal(section.match(/<time /g)?.length, 1, 'the time once');
    assert.ok(!doc.includes('Last run'), 'no second line about the newest run');
  });
});

function promptForm(overrides: Partial<InputsForm> = {}): InputsForm {
  return {
    id: 'form-1',
    operation: 'test_prompt',
    draft: { text: 'Hello', json: '{\n  "customer_name": ""\n}' },
    suggestions: [],
    ...overrides,
  };
}

describe('results panel: the inputs form', () => {
  it('shows prompt_text and prompt_params prefilled, the object one key per line in a tall enough text area', () => {
    const doc = render({ runs: [], form: promptForm() });
    assert.match(doc, /<h2 id="inputs-heading">New test_prompt run<\/h2>/);
    assert.match(
      doc,
      /<form class="inputs" data-form="form-1" data-object="prompt_params" data-empty="prompt_text must not be empty: [^"]*" novalidate>/,
    );
    assert.match(
      doc,
      /<label for="input-text">prompt_text<\/label>\n<textarea id="input-text" data-input="text" rows="3" maxlength="100000"[^>]*>\nHello<\/textarea>/,
    );
    assert.match(doc, /<label for="input-json">prompt_params /);
    assert.match(
      doc,
      /<textarea id="input-json" class="json" data-input="json" rows="4" [^>]*spellcheck="false"[^>]*>\n\{\n {2}&quot;customer_name&quot;: &quot;&quot;\n\}<\/textarea>/,
    );
    assert.match(
      doc,
      /<button type="submit" class="primary">Run<\/button><button type="button" class="secondary" data-action="closeInputs" data-form="form-1">Cancel<\/button>/,
    );
    assert.ok(doc.includes('Ctrl+Enter runs, Escape cancels.'));
  });

  it('keeps what was typed as text, even a closing tag', () => {
    const doc = render({
      runs: [],
      form: promptForm({ draft: { text: `</textarea>${XSS.script}`, json: XSS.svg }, problem: `bad ${XSS.img}` }),
    });
    assert.ok(!/<script>alert/.test(doc) && !/<svg/i.test(doc) && !/<img/i.test(doc));
    assert.ok(doc.includes('>\n&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>'));
    assert.ok(
      doc.includes(
        '<p id="input-problem" class="problem" aria-live="polite">bad &lt;img src=x onerror=alert(1)&gt;</p>',
      ),
      "the extension's problem, shown",
    );
  });

  it('asks an action in one line, offering recent ones', () => {
    const doc = render({
      runs: [],
      form: promptForm({
        operation: 'execute_action',
        draft: { text: 'ping', json: '' },
        suggestions: ['ping', '"><b>'],
      }),
    });
    assert.match(
      doc,
      /<label for="input-text">action<\/label>\n<input id="input-text" data-input="text" type="text" value="ping" [^>]* list="input-recent"[^>]*><datalist id="input-recent"><option value="ping"><option value="&quot;&gt;&lt;b&gt;"><\/datalist>/,
    );
    assert.match(doc, /data-object="params" data-empty="action must not be empty: [^"]*"/);
    assert.match(doc, /rows="3"[^>]*>\n<\/textarea>/, 'no params: an empty object field');
  });

  it('continuing a conversation, says which and shows its turns so far instead of "No runs yet"', () => {
    const first = promptRun('turn-1', okPrompt('Which order?'), { startedAt: '2025-03-04T10:20:30.000Z' });
    const second = promptRun('turn-2', okPrompt('It ships today.'), {
      inputs: { prompt_text: 'A-1042' },
      conversation: { turn: 2, previous: { resource: RESOURCE, runId: 'turn-1' } },
    });
    const doc = render({
      runs: [],
      form: promptForm({ continues: [first, second] }),
      promptNames: { 3: 'Order Triage' },
    });
    assert.match(
      doc,
      /<h3 id="continued-heading">Continuing the conversation of <time datetime="2025-03-04T10:20:30.000Z">[^<]+<\/time>, 2 turns<\/h3>/,
    );
    assert.ok(doc.indexOf('id="continued-heading"') < doc.indexOf('<form '), 'above the fields');
    assert.deepEqual(doc.match(/<span class="turn-label">Sent:<\/span> [^<]*/g), [
      '<span class="turn-label">Sent:</span> Hello there',
      '<span class="turn-label">Sent:</span> A-1042',
    ]);
    assert.ok(doc.includes('It ships today.'));
    assert.ok(doc.includes('&quot;Order Triage&quot; (prompt 3)'), 'each turn names the prompt that answered');
    assert.ok(!doc.includes('No runs yet.'));
    assert.ok(
      render({ runs: [], form: promptForm() }).includes('No runs yet.'),
      'a form of a first run keeps the empty state',
    );
  });

  it('comes first, before the run shown and the history', () => {
    const run = promptRun('run-1', okPrompt('x'));
    const doc = render({ runs: [run], selected: run, form: promptForm() });
    assert.deepEqual(doc.match(/<h2 id="[a-z-]+">/g), [
      '<h2 id="inputs-heading">',
      '<h2 id="run-heading">',
      '<h2 id="history-heading">',
    ]);
  });

  it('is offered for the run shown: Edit and Run beside Run again, not for a sent request', () => {
    const run = promptRun('run-1', okPrompt('x'));
    assert.match(
      render({ runs: [run], selected: run }),
      /data-action="rerun" data-run="run-1">Run again<\/button><button [^>]*data-action="edit" data-run="run-1">Edit and Run<\/button>/,
    );
    const sent: RunRecord = { ...run, operation: 'send_request', inputs: { arguments: {} } };
    assert.ok(!render({ runs: [sent], selected: sent }).includes('data-action="edit"'));
  });
});

describe('results panel: history and empty state', () => {
  it('lists runs newest first with Show and a compare checkbox each', () => {
    const runs = [
      promptRun('new', okPrompt('second answer')),
      promptRun('old', okPrompt('first answer'), { startedAt: '2025-03-03T09:00:00.000Z' }),
    ];
    const doc = render({ runs, selected: runs[1] });
    assert.ok(doc.indexOf('data-action="select" data-run="new"') < doc.indexOf('data-action="select" data-run="old"'));
    assert.ok(doc.includes('<input type="checkbox" data-role="pick" data-run="new"'));
    assert.ok(doc.includes('<input type="checkbox" data-role="pick" data-run="old"'));
    assert.match(doc, /<button [^>]*data-action="compare"[^>]* disabled>Compare selected<\/button>/);
    assert.match(
      doc,
      /<tr class="selected" aria-current="true">\n<td><input type="checkbox" data-role="pick" data-run="old"/,
    );
    assert.ok(doc.includes('<td class="preview">second answer</td>'));
  });

  it('renders an empty state without runs', () => {
    const doc = render({ runs: [] });
    assert.ok(doc.includes('No runs yet.'));
    assert.ok(doc.includes('class="empty"'));
    assert.ok(!doc.includes('<table'));
    assert.ok(!doc.includes('data-action'));
  });

  it('keeps one h1 and h2 sections', () => {
    const run = promptRun('run-1', okPrompt('x'));
    const doc = render({ runs: [run], selected: run });
    assert.equal(doc.match(/<h1>/g)?.length, 1);
    assert.deepEqual(doc.match(/<h2 id="[a-z-]+">/g), ['<h2 id="run-heading">', '<h2 id="history-heading">']);
  });
});

describe('results panel: messages from the page', () => {
  it('accepts each request of the allow-list', () => {
    const valid = [
      { type: 'ready' },
      { type: 'cancel' },
      { type: 'select', runId: 'a' },
      { type: 'rerun', runId: 'a' },
      { type: 'edit', runId: 'a' },
      { type: 'runInputs', formId: 'f', text: 'Hello', json: '{"a": 1}' },
      { type: 'runInputs', formId: 'f', text: '', json: 'not checked here: the form checks it' },
      { type: 'closeInputs', formId: 'f' },
      { type: 'openPrompt', runId: 'a' },
      { type: 'saveAsTestCase', runId: 'a' },
      { type: 'continueConversation', runId: 'a' },
      { type: 'saveAsConversationCase', runId: 'a' },
      { type: 'copy', runId: 'a', field: 'response' },
      { type: 'copy', runId: 'a', field: 'params' },
      { type: 'compare', runIds: ['a', 'b'] },
    ];
    for (const message of valid) assert.deepEqual(parsePanelRequest(message), message);
  });

  it('drops anything else', () => {
    const invalid: unknown[] = [
      undefined,
      null,
      'ready',
      ['ready'],
      {},
      { type: 'eval' },
      { type: 'ready', extra: 1 },
      { type: 'select' },
      { type: 'select', runId: 3 },
      { type: 'select', runId: '' },
      { type: 'select', runId: 'x'.repeat(101) },
      { type: 'copy', runId: 'a', field: 'constructor' },
      { type: 'copy', runId: 'a' },
      { type: 'compare', runIds: ['a'] },
      { type: 'compare', runIds: ['a', 'b', 'c'] },
      { type: 'compare', runIds: ['a', 2] },
      { type: 'compare', runIds: ['a', 'a'] },
      { type: 'compare', runIds: 'ab' },
      { type: 'openPrompt', runId: 'a', id: 7 },
      { type: 'edit' },
      { type: 'runInputs', formId: 'f', text: 'x' },
      { type: 'runInputs', formId: 'f', text: 1, json: '' },
      { type: 'runInputs', formId: '', text: 'x', json: '' },
      { type: 'runInputs', formId: 'f', text: 'x'.repeat(100_001), json: '' },
      { type: 'runInputs', formId: 'f', text: 'x', json: { a: 1 } },
      { type: 'runInputs', formId: 'f', text: 'x', json: '', runId: 'a' },
      { type: 'closeInputs' },
      { type: 'closeInputs', formId: 'f', text: 'x' },
    ];
    for (const message of invalid) assert.equal(parsePanelRequest(message), undefined, JSON.stringify(message));
  });
});
