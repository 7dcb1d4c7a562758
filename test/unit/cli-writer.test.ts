import * as assert from 'node:assert/strict';
import { EXIT, UsageError, type CliContext, type Command } from '../../src/cli/command';
import { main } from '../../src/cli/main';

/** A command that writes what a hostile name makes of each kind of output. */
function writing(write: (context: CliContext) => void): Command {
  return {
    name: 'echo',
    summary: 'writes',
    usage: '',
    details: [],
    options: {},
    run: async (_args, context) => {
      write(context);
      return EXIT.ok;
    },
  };
}

async function written(
  command: Command,
  env: NodeJS.ProcessEnv = {},
): Promise<{ out: string[]; err: string[]; documents: string[]; progress: string[] }> {
  const lines = { out: [] as string[], err: [] as string[], documents: [] as string[], progress: [] as string[] };
  const context: CliContext = {
    cwd: '/',
    env,
    out: (line) => lines.out.push(line),
    err: (line) => lines.err.push(line),
    document: (text) => lines.documents.push(text),
    progress: { show: (line) => lines.progress.push(line), clear: () => undefined },
  };
  await main(['echo'], context, [{ name: 'echo', load: () => command }]);
  return lines;
}

describe('the command-line tool: what it writes shows no character that acts', () => {
  const NAME = 'Red \u001b[31mALERT\u0007\r\nforged line \u202Egnp.exe \u009b2J';

  it('writes each line inert and one line, whatever a name in it holds', async () => {
    const lines = await written(
      writing((context) => {
        context.out(`updated "${NAME}"`);
        context.err(`warning: "${NAME}"`);
        context.progress?.show(`pull: ${NAME}`);
      }),
    );
    const shown = 'Red \\u001B[31mALERT\\u0007\\r\\nforged line \\u202Egnp.exe \\u009B2J';
    assert.deepEqual(lines.out, [`updated "${shown}"`]);
    assert.deepEqual(lines.err, [`warning: "${shown}"`]);
    assert.deepEqual(lines.progress, [`pull: ${shown}`]);
  });

  it("keeps a document's lines and JSON's data: its escapes read back as the same characters", async () => {
    const json = JSON.stringify({ name: NAME, fields: ['a\tb'] }, null, 2);
    const { documents } = await written(
      writing((context) => {
        context.document(json);
        context.document(`flowchart LR\n  a["${NAME}"]`);
      }),
    );
    for (const char of ['\u001b', '\u0007', '\r', '\u202e', '\u009b'])
      assert.ok(!documents.join('').includes(char), documents.join(''));
    assert.deepEqual(JSON.parse(documents[0] ?? ''), { name: NAME, fields: ['a\tb'] });
    assert.equal(
      documents[1],
      'flowchart LR\n  a["Red \\u001B[31mALERT\\u0007\\r\nforged line \\u202Egnp.exe \\u009B2J"]',
    );
  });

  it('hides the token before escaping, in a document as in a line', async () => {
    const token = 'tok\u202Eless-than-16';
    const { out, documents } = await written(
      writing((context) => {
        context.out(`the service said: Bearer ${token}`);
        context.document(JSON.stringify({ said: token }));
      }),
      { CONVAI_TOKEN: token },
    );
    assert.deepEqual(out, ['the service said: Bearer [redacted]']);
    assert.deepEqual(JSON.parse(documents[0] ?? ''), { said: '[redacted]' });
  });

  it("writes a usage error's list under it, a line each", async () => {
    const { err } = await written(
      writing(() => {
        throw new UsageError('two problems:', [`  a "${NAME}"`, 'fix them']);
      }),
    );
    assert.deepEqual(err, [
      'two problems:',
      '  a "Red \\u001B[31mALERT\\u0007\\r\\nforged line \\u202Egnp.exe \\u009B2J"',
      'fix them',
    ]);
  });
});
