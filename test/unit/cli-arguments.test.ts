import * as assert from 'node:assert/strict';
import { parseArguments } from '../../src/cli/arguments';
import { EXIT, UsageError, type Command } from '../../src/cli/command';

const command: Command = {
  name: 'demo',
  summary: 'a command for the tests',
  usage: '[--tenant <id>] [--json] [--tag <t>]… <folder>',
  details: [],
  options: {
    tenant: { type: 'string', short: 't' },
    json: { type: 'boolean' },
    tag: { type: 'string', multiple: true },
  },
  run: () => Promise.resolve(EXIT.ok),
};

/** parseArgs gives its values without a prototype; as a plain object they compare. */
function parsed(args: string[]): { values: object; positionals: string[] } {
  const { values, positionals } = parseArguments(args, command);
  return { values: { ...values }, positionals };
}

describe('the command-line tool: arguments', () => {
  it("reads a negative number after a flag that takes a value as its value, for the flag's own check", () => {
    for (const args of [
      ['--tenant', '-1', 'x'],
      ['--tenant=-1', 'x'],
      ['-t', '-1', 'x'],
    ]) {
      assert.deepEqual(parsed(args), { values: { tenant: '-1' }, positionals: ['x'] }, args.join(' '));
    }
    assert.deepEqual(parsed(['--tag', '-2', '--tag', '-3.5', 'x']).values, { tag: ['-2', '-3.5'] });
  });

  it('leaves what is no value to parseArgs: a dash-word after a flag, a negative number after a boolean or --', () => {
    assert.throws(
      () => parseArguments(['--tenant', '-x'], command),
      (error: unknown) =>
        error instanceof UsageError &&
        /^demo: Option '--tenant' argument is ambiguous; usage: .* demo \[--tenant <id>\]/.test(error.message),
    );
    assert.throws(
      () => parseArguments(['--json', '-1'], command),
      (error: unknown) => error instanceof UsageError && /Unknown option '-1'/.test(error.message),
    );
    assert.deepEqual(parsed(['--', '--tenant', '-1']), { values: {}, positionals: ['--tenant', '-1'] });
  });

  it('refuses a single-valued flag given twice with different values, naming both', () => {
    assert.throws(
      () => parseArguments(['--tenant', '1', '--tenant=2', 'x'], command),
      (error: unknown) =>
        error instanceof UsageError && error.message === 'demo: --tenant is given twice, as "1" and "2"; give it once.',
    );
    assert.throws(
      () => parseArguments(['-t', '1', '--tenant', '-1'], command),
      /--tenant is given twice, as "1" and "-1"/,
    );
  });

  it('takes a flag repeated with the same value, and a multiple flag any number of times', () => {
    assert.deepEqual(parsed(['--json', '--tenant', '1', '--json', '--tenant', '1', 'x']), {
      values: { json: true, tenant: '1' },
      positionals: ['x'],
    });
    assert.deepEqual(parsed(['--tag', 'a', '--tag', 'b']).values, { tag: ['a', 'b'] });
  });
});
