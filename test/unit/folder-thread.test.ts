import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskFolder, memoryFolder, UnsafePathError } from '../../src/core/tenant/folder-io';
import { LIMITS } from '../../src/core/limits';
import { STAMP_FIELDS } from '../../src/core/tenant/file-stamps';
import { PartialWriteError } from '../../src/core/tenant/folder-thread';

describe('tenant folders: a thread of their own (writing a batch at a time, stamping many files)', () => {
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

  const partial = (written: number, cause: (error: Error) => boolean) => (error: unknown): boolean =>
    error instanceof PartialWriteError && error.written === written && cause(error.cause);

  for (const background of [true, false]) {
    describe(background ? 'on its own thread' : 'in turn', () => {
      it('writes every batch, in order, creating folders as needed', async () => {
        const writer = diskFolder(root).batchWriter(background);
        const first = writer.write([['ai_prompts/a.json', '{"id": 1}'], ['ai_prompts/a.system.md', 'Be brief.']]);
        const second = writer.write([['intents/b.json', '{"id": 2}'], ['ai_prompts/a.system.md', 'Be briefer.']]);
        await Promise.all([first, second]);
        await writer.close();
        assert.equal(readFileSync(join(root, 'ai_prompts', 'a.json'), 'utf8'), '{"id": 1}');
        assert.equal(readFileSync(join(root, 'ai_prompts', 'a.system.md'), 'utf8'), 'Be briefer.', 'the later batch last');
        assert.equal(readFileSync(join(root, 'intents', 'b.json'), 'utf8'), '{"id": 2}');
      });

      it('writes nothing through a link, and says how many files came before it', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(outside, join(root, 'intents'));
        const writer = diskFolder(root).batchWriter(background);
        await assert.rejects(
          writer.write([['ai_prompts/a.json', '{}'], ['intents/planted.json', '{}'], ['ai_prompts/b.json', '{}']]),
          partial(1, (cause) => cause instanceof UnsafePathError && /goes through intents, which is a symbolic link/.test(cause.message)),
        );
        await writer.close();
        assert.equal(existsSync(join(root, 'ai_prompts', 'a.json')), true);
        assert.equal(existsSync(join(outside, 'planted.json')), false);
        assert.equal(existsSync(join(root, 'ai_prompts', 'b.json')), false, 'nothing after the refused file');
      });

      it('refuses a file that is itself a link, and leaves what it points to alone', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        writeFileSync(join(outside, 'secret.json'), 'secret');
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'b.json'));
        const writer = diskFolder(root).batchWriter(background);
        await assert.rejects(writer.write([['ai_prompts/a.json', '{}'], ['ai_prompts/b.json', 'overwritten']]), partial(1, (cause) => cause instanceof UnsafePathError));
        await writer.close();
        assert.equal(readFileSync(join(outside, 'secret.json'), 'utf8'), 'secret');
      });

      it('names the file the disk refused, with the system\'s reason', async () => {
        mkdirSync(join(root, 'ai_prompts', 'b.json'), { recursive: true });
        const writer = diskFolder(root).batchWriter(background);
        await assert.rejects(
          writer.write([['ai_prompts/a.json', '{}'], ['ai_prompts/b.json', '{}'], ['ai_prompts/c.json', '{}']]),
          partial(1, (cause) => (cause as NodeJS.ErrnoException).code === 'EISDIR' && cause.message.includes('b.json')),
        );
        await writer.close();
        assert.equal(existsSync(join(root, 'ai_prompts', 'c.json')), false);
      });
    });
  }

  it('in memory, writes in turn', async () => {
    const io = memoryFolder();
    const writer = io.batchWriter(true);
    await assert.rejects(writer.write([['a.json', '1'], ['../b.json', '2'], ['c.json', '3']]), partial(1, (cause) => cause instanceof UnsafePathError));
    await writer.close();
    assert.deepEqual([...io.files.keys()], ['a.json']);
  });

  it('stamps many files half here and half on the thread, as one by one, with none for a link or a missing file', async function () {
    // Twenty thousand files to make and remove: as long as the disk takes.
    this.timeout(30_000);
    const count = LIMITS.sharedStamps.value + 2;
    const files = Array.from({ length: count }, (_, index) => `ai_prompts/p${index}.json`);
    mkdirSync(join(root, 'ai_prompts'));
    for (const [index, file] of files.entries()) writeFileSync(join(root, file), `${index}`);
    writeFileSync(join(outside, 'secret.json'), 'secret');
    const linked = files[count - 2] as string;
    rmSync(join(root, linked));
    symlinkSync(join(outside, 'secret.json'), join(root, linked));
    const missing = files[count - 1] as string;
    rmSync(join(root, missing));
    const stamps = await diskFolder(root).stamps(files);
    const one = (index: number): number[] => [...stamps.subarray(index * STAMP_FIELDS, (index + 1) * STAMP_FIELDS)];
    for (const index of [0, Math.floor(count / 2) - 1, Math.floor(count / 2), count - 3]) {
      const stats = lstatSync(join(root, files[index] as string));
      assert.deepEqual(one(index), [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino], `the stamp of ${files[index]}`);
    }
    assert.ok(one(count - 2).every(Number.isNaN), 'no stamp for a link');
    assert.ok(one(count - 1).every(Number.isNaN), 'no stamp for a missing file');
  });

  it('rejects a batch handed over after close', async () => {
    const writer = diskFolder(root).batchWriter(true);
    await writer.write([['a.json', '1']]);
    await writer.close();
    await assert.rejects(writer.write([['b.json', '2']]), /folder's thread was closed/);
    assert.equal(existsSync(join(root, 'b.json')), false);
  });
});
