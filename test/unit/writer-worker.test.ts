import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartialWriteError, UnsafePathError, writerInTurn, type BatchWriter } from '../../src/core/tenant/folder-io';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';

describe('tenant folders: batch writers (a worker for a large pull, or one file after another)', () => {
  let scratch: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'convai-batch-writer-'));
    root = join(scratch, 'tenant');
    outside = join(scratch, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const partial =
    (written: number, cause: (error: Error) => boolean) =>
    (error: unknown): boolean =>
      error instanceof PartialWriteError && error.written === written && cause(error.cause);

  for (const background of [true, false]) {
    const writerOf = (folder: DiskFolder): BatchWriter => (background ? folder.workerWriter() : writerInTurn(folder));
    describe(background ? 'on a worker' : 'in turn', () => {
      it('writes every batch, in order, creating folders as needed', async () => {
        const writer = writerOf(new DiskFolder(root));
        const first = writer.write([
          ['ai_prompts/a.json', '{"id": 1}'],
          ['ai_prompts/a.system.md', 'Be brief.'],
        ]);
        const second = writer.write([
          ['intents/b.json', '{"id": 2}'],
          ['ai_prompts/a.system.md', 'Be briefer.'],
        ]);
        await Promise.all([first, second]);
        await writer.close();
        assert.equal(readFileSync(join(root, 'ai_prompts', 'a.json'), 'utf8'), '{"id": 1}');
        assert.equal(
          readFileSync(join(root, 'ai_prompts', 'a.system.md'), 'utf8'),
          'Be briefer.',
          'the later batch last',
        );
        assert.equal(readFileSync(join(root, 'intents', 'b.json'), 'utf8'), '{"id": 2}');
      });

      it('writes nothing through a link, and says how many files came before it', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(outside, join(root, 'intents'));
        const writer = writerOf(new DiskFolder(root));
        await assert.rejects(
          writer.write([
            ['ai_prompts/a.json', '{}'],
            ['intents/planted.json', '{}'],
            ['ai_prompts/b.json', '{}'],
          ]),
          partial(
            1,
            (cause) =>
              cause instanceof UnsafePathError && /goes through intents, which is a symbolic link/.test(cause.message),
          ),
        );
        await writer.close();
        assert.equal(existsSync(join(root, 'ai_prompts', 'a.json')), true);
        assert.equal(existsSync(join(outside, 'planted.json')), false);
        assert.equal(existsSync(join(root, 'ai_prompts', 'b.json')), false, 'nothing after the refused file');
      });

      it('refuses an unsafe name in a folder it has written to already', async () => {
        const writer = writerOf(new DiskFolder(root));
        await writer.write([['ai_prompts/a.json', '{}']]);
        await assert.rejects(
          writer.write([
            ['ai_prompts/b.json', '{}'],
            ['ai_prompts/c\u0001.json', '{}'],
            ['ai_prompts/d.json', '{}'],
          ]),
          partial(1, (cause) => cause instanceof UnsafePathError && /control character/.test(cause.message)),
        );
        await writer.close();
        assert.equal(existsSync(join(root, 'ai_prompts', 'b.json')), true);
        assert.equal(existsSync(join(root, 'ai_prompts', 'd.json')), false, 'nothing after the refused file');
      });

      it('refuses a file that is itself a link, and leaves what it points to alone', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        writeFileSync(join(outside, 'secret.json'), 'secret');
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'b.json'));
        const writer = writerOf(new DiskFolder(root));
        await assert.rejects(
          writer.write([
            ['ai_prompts/a.json', '{}'],
            ['ai_prompts/b.json', 'overwritten'],
          ]),
          partial(1, (cause) => cause instanceof UnsafePathError),
        );
        await writer.close();
        assert.equal(readFileSync(join(outside, 'secret.json'), 'utf8'), 'secret');
      });

      it("names the file the disk refused, with the system's reason", async () => {
        mkdirSync(join(root, 'ai_prompts', 'b.json'), { recursive: true });
        const writer = writerOf(new DiskFolder(root));
        await assert.rejects(
          writer.write([
            ['ai_prompts/a.json', '{}'],
            ['ai_prompts/b.json', '{}'],
            ['ai_prompts/c.json', '{}'],
          ]),
          partial(1, (cause) => (cause as NodeJS.ErrnoException).code === 'EISDIR' && cause.message.includes('b.json')),
        );
        await writer.close();
        assert.equal(existsSync(join(root, 'ai_prompts', 'c.json')), false);
      });
    });
  }

  it('in memory, writes in turn', async () => {
    const io = new MemoryFolder();
    const writer = writerInTurn(io);
    await assert.rejects(
      writer.write([
        ['a.json', '1'],
        ['../b.json', '2'],
        ['c.json', '3'],
      ]),
      partial(1, (cause) => cause instanceof UnsafePathError),
    );
    await writer.close();
    assert.deepEqual([...io.files.keys()], ['a.json']);
  });

  it('rejects a batch handed over after close', async () => {
    const writer = new DiskFolder(root).workerWriter();
    await writer.write([['a.json', '1']]);
    await writer.close();
    await assert.rejects(writer.write([['b.json', '2']]), /folder's writer worker was closed/);
    assert.equal(existsSync(join(root, 'b.json')), false);
  });
});
