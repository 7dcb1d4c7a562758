import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { CREDENTIAL_MASK } from '../../src/core/credentials';
import {
  agentElementNames,
  agentElementsLeftOut,
  leftOutElementsNote,
  MissingPartError,
  viewOf,
  type ViewRead,
} from '../../src/core/document-views';
import type { FileLocation, PromptPart } from '../../src/core/uri';

const at = { connection: 'local', tenantId: 1 } as const;
const part = (name: PromptPart): FileLocation => ({ type: 'part', ...at, segment: 'ai_prompts', id: 3, part: name });

const definition = {
  type: 'function',
  name: 'get_order_status',
  description: 'Look up an order',
  parameters: { type: 'object', properties: {} },
};
const prompt: JsonObject = {
  id: 3,
  name: 'Order Triage',
  description: 'd',
  system: 'You are {{assistant_name}}.\n\n## Rules\n- be brief',
  user_prompt: null,
  assistant: '',
  settings: '{"language":"en"}',
  function_defs: JSON.stringify([definition]),
  tenant_id: 1,
};

function sent(read: ViewRead): { edited: JsonObject; sends: string[] } {
  assert.ok(read.ok, `expected a save, got ${JSON.stringify(read)}`);
  return read;
}

function problems(read: ViewRead): string[] {
  assert.ok(!read.ok, 'expected the save to be refused');
  return [...read.syntax.map((p) => p.message), ...read.problems.map((p) => p.message)];
}

describe('document views', () => {
  describe('text parts', () => {
    it('show the field exactly, null and absent as empty', () => {
      assert.equal(viewOf(part('system')).render(prompt), prompt.system);
      assert.equal(viewOf(part('user_prompt')).render(prompt), '');
      assert.equal(viewOf(part('assistant')).render({ id: 3 }), '');
    });

    it('send the text as it is, that field alone', () => {
      const text = '  Line one\r\n\n{{x}} — ünïcode 👋\n';
      const { edited, sends } = sent(viewOf(part('system')).read(text, prompt));
      assert.deepEqual(sends, ['system']);
      assert.equal(edited.system, text);
    });
  });

  describe('function_defs', () => {
    const view = viewOf(part('function_defs'));

    it('shows the parsed array indented by two spaces; nothing stored is an empty array', () => {
      assert.equal(view.render(prompt), `${JSON.stringify([definition], null, 2)}\n`);
      assert.equal(view.render({ ...prompt, function_defs: null }), '[]\n');
      assert.equal(view.render({ ...prompt, function_defs: ' ' }), '[]\n');
    });

    it('shows stored text that is not JSON as it is, so it can be mended', () => {
      assert.equal(view.render({ ...prompt, function_defs: '[{"name": ' }), '[{"name": ');
    });

    it('sends compact JSON text of the document', () => {
      const { edited, sends } = sent(view.read(`[\n  ${JSON.stringify(definition)}\n]\n`, prompt));
      assert.deepEqual(sends, ['function_defs']);
      assert.equal(edited.function_defs, JSON.stringify([definition]));
    });

    it('refuses a definition without a name, parameters without properties, a duplicate name, and a non-array', () => {
      const nameless = Object.fromEntries(Object.entries(definition).filter(([key]) => key !== 'name'));
      assert.match(problems(view.read(JSON.stringify([nameless]), prompt)).join('\n'), /\[0\]\.name: required/);
      const noProperties = { ...definition, parameters: { type: 'object' } };
      assert.match(
        problems(view.read(JSON.stringify([noProperties]), prompt)).join('\n'),
        /\[0\]\.parameters\.properties: required/,
      );
      const twice = problems(view.read(JSON.stringify([definition, { ...definition, description: 'again' }]), prompt));
      assert.deepEqual(twice, [
        '[1].name: "get_order_status" is already the name of definition [0]; function names must be unique',
      ]);
      assert.match(problems(view.read('{}', prompt)).join('\n'), /must be an array/);
    });

    it('refuses text that is not JSON, naming the problem', () => {
      assert.deepEqual(problems(view.read('[{"type": "function",}]', prompt)), ['Trailing comma is not allowed']);
    });

    it('lets problems the service already held pass when the user changed something else', () => {
      const stored = { ...prompt, function_defs: JSON.stringify([{ ...definition, description: '' }, definition]) };
      const edited = JSON.stringify([
        { ...definition, description: '' },
        { ...definition, name: 'renamed' },
      ]);
      assert.ok(view.read(edited, stored).ok);
    });
  });

  describe('settings', () => {
    const view = viewOf(part('settings'));

    it('shows the parsed object; nothing stored is an empty object', () => {
      assert.equal(view.render(prompt), '{\n  "language": "en"\n}\n');
      assert.equal(view.render({ ...prompt, settings: null }), '{}\n');
    });

    it('takes any JSON object, and refuses anything else', () => {
      assert.equal(sent(view.read('{"a": [1, {"b": null}]}', prompt)).edited.settings, '{"a":[1,{"b":null}]}');
      assert.match(problems(view.read('[1]', prompt)).join(), /settings must be a JSON object/);
    });
  });

  describe("an agent element's prompt", () => {
    const agent: JsonObject = {
      id: 5,
      name: 'Front desk',
      number: '+1',
      configuration: {
        name: 'Front desk',
        prompt: [
          { id: 1, name: 'Greeting', prompt: 'Hello', voice: 'alloy', integration: { id: 2, bearer_token: 'secret' } },
          { id: 2, name: 'Orders', prompt: null, voice: 'echo' },
        ],
      },
    };
    const element = (name: string): FileLocation => ({
      type: 'agentPrompt',
      ...at,
      segment: 'agents',
      id: 5,
      element: name,
    });

    it("shows the element's prompt text", () => {
      assert.equal(viewOf(element('Greeting')).render(agent), 'Hello');
      assert.equal(viewOf(element('Orders')).render(agent), '');
    });

    it("sends the configuration with that element's text changed, the others as they were", () => {
      const { edited, sends } = sent(viewOf(element('Orders')).read('Which order?', agent));
      assert.deepEqual(sends, ['configuration']);
      const prompts = (edited.configuration as JsonObject).prompt as JsonObject[];
      assert.deepEqual(
        prompts.map((p) => p.prompt),
        ['Hello', 'Which order?'],
      );
    });

    it('says so when the element is no longer there', () => {
      assert.throws(() => viewOf(element('Gone')).render(agent), MissingPartError);
      assert.match(problems(viewOf(element('Gone')).read('x', agent)).join(), /no prompt element named "Gone"/);
    });

    it('tells the elements whose names cannot name a document, with the reason and the fix', () => {
      const odd: JsonObject = {
        configuration: {
          prompt: [
            { name: 'Greeting' },
            { name: '../../evil' },
            { name: 'a/b?c#d' },
            { name: '..' },
            { prompt: 'no name' },
          ],
        },
      };
      assert.deepEqual(agentElementNames(odd), ['Greeting']);
      assert.deepEqual(agentElementsLeftOut(odd), ['../../evil', 'a/b?c#d', '..']);
      assert.equal(
        leftOutElementsNote(agentElementsLeftOut(odd)),
        'Not listed: 3 prompt elements "../../evil", "a/b?c#d", "..". A name that is empty, "." or "..", or holds "/" cannot name a document: rename it in the agent\'s document (configuration.prompt) to open its text here.',
      );
      assert.match(leftOutElementsNote(['a/b']), /^Not listed: the prompt element "a\/b"\./);
    });
  });

  describe('the whole document', () => {
    const tenant: FileLocation = { type: 'tenant', ...at };

    it('masks credentials unless revealed, and puts the originals back on save', () => {
      const detail = { id: 1, name: 'Acme', auth_token: 'sentinel-token-value', booked_package: 1 };
      const shown = viewOf(tenant).render(detail);
      assert.ok(shown.includes(CREDENTIAL_MASK) && !shown.includes('sentinel-token-value'));
      assert.ok(viewOf(tenant).render(detail, { revealCredentials: true }).includes('sentinel-token-value'));
      const { edited, sends } = sent(viewOf(tenant).read(shown.replace('"Acme"', '"Acme Inc"'), detail));
      assert.equal(edited.auth_token, 'sentinel-token-value');
      assert.deepEqual(sends, ['name']);
    });

    it('does not flag a field the service returned beyond the schema, and flags one the user added', () => {
      const location: FileLocation = { type: 'resource', ...at, segment: 'ai_functions', id: 2 };
      const detail = {
        id: 2,
        name: 'f',
        description: 'd',
        parameters: null,
        tenant_id: 1,
        updated_at: '2026-01-01T00:00:00Z',
      };
      assert.ok(viewOf(location).read(JSON.stringify({ ...detail, description: 'e' }), detail).ok);
      assert.match(
        problems(viewOf(location).read(JSON.stringify({ ...detail, descripton: 'e' }), detail)).join(),
        /descripton: unknown field; did you mean "description"\?/,
      );
    });

    it("refuses definitions inside a prompt's function_defs string that the function_defs document would refuse", () => {
      const location: FileLocation = { type: 'resource', ...at, segment: 'ai_prompts', id: 3 };
      const edited = { ...prompt, function_defs: JSON.stringify([definition, definition]) };
      assert.match(
        problems(viewOf(location).read(JSON.stringify(edited), prompt)).join(),
        /function_defs: \[1\]\.name: "get_order_status" is already the name/,
      );
    });
  });
});
