import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAll, UnsafePathError, type FolderIO } from '../../src/core/tenant/folder-io';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';

describe('tenant folders: reading and writing files', () => {
  let scratch: string;
  /** The tenant folder. */
  let root: string;
  /** A folder beside it, which nothing done in the tenant folder may touch. */
  let outside: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'convai-folder-io-'));
    root = join(scratch, 'tenant');
    outside = join(scratch, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.json'), '{"secret": true}');
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const refused =
    (pattern: RegExp) =>
    (error: unknown): boolean =>
      error instanceof UnsafePathError && pattern.test(error.message);

  it('writes, reads, lists and removes files, creating folders as needed', async () => {
    const io = new DiskFolder(root);
    await io.write('ai_prompts/a.json', '{}');
    await io.write('ai_prompts/a.system.md', 'Be brief.');
    assert.equal(await io.read('ai_prompts/a.system.md'), 'Be brief.');
    assert.deepEqual(await io.list('ai_prompts'), ['a.json', 'a.system.md']);
    await io.remove('ai_prompts/a.system.md');
    await io.remove('ai_prompts/gone.json');
    assert.deepEqual(await io.list('ai_prompts'), ['a.json']);
    assert.equal(await io.read('ai_prompts/gone.json'), undefined);
    assert.equal(await io.read('intents/x.json'), undefined, 'a missing folder is no error');
    assert.deepEqual(await io.list('intents'), []);
  });

  const folders = [
    ['on disk', () => new DiskFolder(root)],
    ["on disk, blocking (the command-line tool's)", () => new DiskFolder(root, { blocking: true })],
    ['in memory', () => new MemoryFolder()],
  ] as const;
  for (const [name, make] of folders) {
    describe(name, () => {
      let io: FolderIO;
      beforeEach(() => {
        io = make();
      });

      it('reads a file without its byte-order mark', async () => {
        await io.write('tenant.json', '\uFEFF{"id": 1}');
        assert.equal(await io.read('tenant.json'), '{"id": 1}');
      });

      it('refuses a path that leads outside the folder, before touching any file', async () => {
        await assert.rejects(io.write('../escape.json', 'x'), refused(/^\.\.\/escape\.json leads outside the folder/));
        await assert.rejects(io.read('ai_prompts/../../outside/secret.json'), refused(/leads outside/));
        await assert.rejects(io.remove('../outside/secret.json'), refused(/leads outside/));
        assert.equal(existsSync(join(scratch, 'escape.json')), false);
        assert.equal(existsSync(join(outside, 'secret.json')), true);
      });

      it('refuses Windows device names and absolute paths', async () => {
        await assert.rejects(
          io.write('ai_prompts/con.json', '{}'),
          (error: unknown) =>
            error instanceof UnsafePathError &&
            error.path === 'ai_prompts/con.json' &&
            /device name \(CON\)/.test(error.message),
        );
        await assert.rejects(io.read('ai_prompts/Nul.system.md'), refused(/device name \(NUL\)/));
        await assert.rejects(io.remove(join(outside, 'secret.json')), refused(/absolute path/));
        assert.equal(existsSync(join(outside, 'secret.json')), true);
      });

      it('walks every entry, sorted, listing a dot-folder without looking into it', async () => {
        for (const file of [
          'tenant.json',
          'ai_prompts/b.json',
          'ai_prompts/a.json',
          '.git/config',
          '.git/objects/ab',
          'intents/.cache/x',
        ])
          await io.write(file, '');
        assert.deepEqual(await io.walk(), [
          { path: '.git', type: 'folder' },
          { path: 'ai_prompts', type: 'folder' },
          { path: 'ai_prompts/a.json', type: 'file' },
          { path: 'ai_prompts/b.json', type: 'file' },
          { path: 'intents', type: 'folder' },
          { path: 'intents/.cache', type: 'folder' },
          { path: 'tenant.json', type: 'file' },
        ]);
      });

      it('replaces a file whole, leaving nothing beside it, and refuses a path outside', async () => {
        await io.write('convai-tenant.json', '{"old": true}');
        await io.replace('convai-tenant.json', '{"new": true}');
        await io.replace('intents/x.json', '{}');
        assert.equal(await io.read('convai-tenant.json'), '{"new": true}');
        assert.deepEqual(
          (await io.walk()).map((entry) => entry.path),
          ['convai-tenant.json', 'intents', 'intents/x.json'],
        );
        await assert.rejects(io.replace('../escape.json', 'x'), refused(/leads outside/));
        assert.equal(existsSync(join(scratch, 'escape.json')), false);
      });

      it('reads many files at once, in order, a missing one as undefined and an unsafe one as its error', async () => {
        const files = Array.from({ length: 40 }, (_, i) => `intents/i${i}.json`);
        for (const file of files) await io.write(file, file);
        const outcomes = await readAll(io, [...files, 'intents/missing.json', '../outside.json']);
        assert.deepEqual(outcomes.slice(0, 41), [...files, undefined]);
        assert.ok(outcomes[41] instanceof UnsafePathError, String(outcomes[41]));
      });
    });
  }

  for (const blocking of [false, true])
    describe(`symbolic links on disk${blocking ? ', blocking' : ''}`, () => {
      const disk = (at: string): DiskFolder => new DiskFolder(at, { blocking });

      it('does not read a file that is a link to one outside', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'a.json'));
        await assert.rejects(
          disk(root).read('ai_prompts/a.json'),
          refused(/^ai_prompts\/a\.json is a symbolic link; a tenant folder holds no links/),
        );
      });

      it('replaces a file that is a link by a file, leaving what it pointed to as it was', async () => {
        symlinkSync(join(outside, 'secret.json'), join(root, 'convai-tenant.json'));
        await disk(root).replace('convai-tenant.json', '{}');
        assert.equal(lstatSync(join(root, 'convai-tenant.json')).isSymbolicLink(), false);
        assert.equal(readFileSync(join(outside, 'secret.json'), 'utf8'), '{"secret": true}');
      });

      it('does not write through a file that is a link, nor create the file a dangling link names', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'a.json'));
        symlinkSync(join(outside, 'new.json'), join(root, 'ai_prompts', 'b.json'));
        const io = disk(root);
        await assert.rejects(io.write('ai_prompts/a.json', 'overwritten'), refused(/is a symbolic link/));
        await assert.rejects(io.write('ai_prompts/b.json', 'created'), refused(/is a symbolic link/));
        assert.equal(readFileSync(join(outside, 'secret.json'), 'utf8'), '{"secret": true}');
        assert.equal(existsSync(join(outside, 'new.json')), false);
      });

      it('removes a link itself, never the file it points to', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'a.json'));
        await disk(root).remove('ai_prompts/a.json');
        assert.equal(existsSync(join(root, 'ai_prompts', 'a.json')), false);
        assert.equal(existsSync(join(outside, 'secret.json')), true);
      });

      it('neither reads, writes, lists nor removes through a kind folder that is a link', async () => {
        symlinkSync(outside, join(root, 'ai_prompts'));
        const io = disk(root);
        const through = refused(/^ai_prompts\/\S+ goes through ai_prompts, which is a symbolic link/);
        await assert.rejects(io.read('ai_prompts/secret.json'), through);
        await assert.rejects(io.write('ai_prompts/new.json', '{}'), through);
        await assert.rejects(io.write('ai_prompts/deeper/new.json', '{}'), through);
        await assert.rejects(io.remove('ai_prompts/secret.json'), through);
        await assert.rejects(io.list('ai_prompts'), refused(/^ai_prompts is a symbolic link/));
        assert.equal(existsSync(join(outside, 'new.json')), false);
        assert.equal(existsSync(join(outside, 'deeper')), false, 'mkdir did not follow the link');
        assert.equal(existsSync(join(outside, 'secret.json')), true);
      });

      it('does not create folders through a dangling link planted as a kind folder', async () => {
        symlinkSync(join(outside, 'planted'), join(root, 'ai_prompts'));
        await assert.rejects(disk(root).write('ai_prompts/new.json', '{}'), refused(/goes through ai_prompts/));
        assert.equal(existsSync(join(outside, 'planted')), false);
      });

      it('finds a link deeper down too, after its parent was checked', async () => {
        const io = disk(root);
        await io.write('ai_prompts/a.json', '{}');
        symlinkSync(outside, join(root, 'ai_prompts', 'sub'));
        await assert.rejects(io.read('ai_prompts/sub/secret.json'), refused(/goes through ai_prompts\/sub,/));
      });

      it('works in a root that is itself reached through a link', async () => {
        const linkedRoot = join(scratch, 'linked-root');
        symlinkSync(root, linkedRoot);
        const io = disk(linkedRoot);
        await io.write('ai_prompts/a.json', '{}');
        assert.equal(await io.read('ai_prompts/a.json'), '{}');
        assert.equal(readFileSync(join(root, 'ai_prompts', 'a.json'), 'utf8'), '{}');
      });

      it('walks links as links, without following them', async () => {
        mkdirSync(join(root, 'ai_prompts'));
        symlinkSync(outside, join(root, 'intents'));
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'a.json'));
        assert.deepEqual(await disk(root).walk(), [
          { path: 'ai_prompts', type: 'folder' },
          { path: 'ai_prompts/a.json', type: 'link' },
          { path: 'intents', type: 'link' },
        ]);
      });
      it('stats no file that is a link or in a folder that is one, and reads at once only where a folder was looked at', async () => {
        const io = disk(root);
        await io.write('ai_prompts/a.json', '{}');
        symlinkSync(join(outside, 'secret.json'), join(root, 'ai_prompts', 'b.json'));
        symlinkSync(outside, join(root, 'intents'));
        const [a, b, c] = await io.fileStats(['ai_prompts/a.json', 'ai_prompts/b.json', 'intents/secret.json']);
        assert.equal(a?.size, 2);
        assert.deepEqual([b, c], [undefined, undefined]);
        if (!blocking) return assert.equal(io.readNow, undefined, 'the extension host never blocks on the disk');
        assert.equal(io.readNow?.('ai_prompts/a.json'), '{}');
        assert.throws(() => io.readNow?.('ai_prompts/b.json'), refused(/is a symbolic link/));
        assert.throws(() => io.readNow?.('intents/secret.json'), refused(/not looked at yet/));
      });
    });

  describe('other entries on disk', () => {
    it('walks a missing root as empty', async () => {
      assert.deepEqual(await new DiskFolder(join(scratch, 'never-pulled')).walk(), []);
    });

    it('does not read a folder as a file, nor wait on a pipe for a writer', async function () {
      if (process.platform === 'win32') this.skip();
      mkdirSync(join(root, 'intents', 'x.json'), { recursive: true });
      execFileSync('mkfifo', [join(root, 'intents', 'pipe.json')]);
      const io = new DiskFolder(root);
      await assert.rejects(io.read('intents/x.json'), { code: 'EISDIR' });
      assert.ok(
        ['', 'failed'].includes((await io.read('intents/pipe.json').catch(() => 'failed')) ?? 'missing'),
        'settles at once',
      );
      const pipe = (await io.walk()).find((entry) => entry.path === 'intents/pipe.json');
      assert.equal(pipe?.type, 'other');
      assert.ok(lstatSync(join(root, 'intents', 'pipe.json')).isFIFO());
    });
  });
});
