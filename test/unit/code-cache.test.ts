import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { codeCacheFile, keepCode, readKeptCode, startBundle } from '../../src/cli/code-cache';
import { userCacheDir } from '../../src/core/cache-dir';
import { repoRoot } from '../harness/paths';

/** What the test bundles report to: each run pushes what it saw. */
interface Seen {
  runs: Array<{ mark: string; dirname: string; filename: string; sibling: string }>;
}
const seen = globalThis as typeof globalThis & { codeCacheSeen?: Seen };

/** A CommonJS bundle that records its run, and reaches a file beside it through its own `require`. */
function bundleText(mark: string): string {
  return `const sibling = require('./sibling.js');
globalThis.codeCacheSeen.runs.push({ mark: ${JSON.stringify(mark)}, dirname: __dirname, filename: __filename, sibling });
function unused() { return ${JSON.stringify(mark)}.length; }
`;
}

describe('command-line tool: code kept between runs', () => {
  let dir: string;
  let bundle: string;
  let cacheFile: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'convai-code-cache-'));
    bundle = path.join(dir, 'dist', 'main.js');
    cacheFile = path.join(dir, 'cache', 'code', 'plan.bin');
    seen.codeCacheSeen = { runs: [] };
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    delete seen.codeCacheSeen;
  });

  function writeBundle(mark: string): void {
    const dist = path.dirname(bundle);
    mkdirSync(dist, { recursive: true });
    writeFileSync(bundle, bundleText(mark));
    writeFileSync(path.join(dist, 'sibling.js'), 'module.exports = "beside the bundle";');
  }

  it('runs the bundle as node would, keeps its code, and takes it on the next run', () => {
    writeBundle('first');
    const first = startBundle(bundle, cacheFile);
    assert.equal(first.fromKeptCode, false);
    assert.equal(existsSync(cacheFile), false, 'nothing kept until asked');
    first.keep();
    assert.ok(existsSync(cacheFile));
    const second = startBundle(bundle, cacheFile);
    assert.equal(second.fromKeptCode, true);
    assert.deepEqual(seen.codeCacheSeen?.runs, [1, 2].map(() => ({ mark: 'first', dirname: path.dirname(bundle), filename: bundle, sibling: 'beside the bundle' })));
  });

  it('the tool\'s bundle holds no import(), which a function from kept code cannot run', () => {
    const bundled = readFileSync(path.join(repoRoot, 'dist', 'cli-main.js'), 'utf8');
    assert.equal(/\bimport\(/.test(bundled), false, 'dist/cli-main.js calls import(): load that module with require, or statically');
  });

  it('takes no code kept of another bundle of the same length, which V8 alone would take', () => {
    writeBundle('aaaaa');
    startBundle(bundle, cacheFile).keep();
    writeBundle('bbbbb');
    const again = startBundle(bundle, cacheFile);
    assert.equal(again.fromKeptCode, false);
    assert.deepEqual(seen.codeCacheSeen?.runs.map((run) => run.mark), ['aaaaa', 'bbbbb']);
  });

  it('never hands V8 damaged code, which would end the process', () => {
    writeBundle('first');
    startBundle(bundle, cacheFile).keep();
    const kept = readFileSync(cacheFile);
    const header = kept.subarray(0, kept.indexOf(10) + 1).toString('latin1');
    const maker = header.split(' ').slice(2, 5).join(' ');
    assert.ok(readKeptCode(cacheFile, maker), 'the whole file is read back');
    kept[kept.length - 100] = (kept[kept.length - 100] ?? 0) ^ 0x5a;
    writeFileSync(cacheFile, kept);
    assert.equal(readKeptCode(cacheFile, maker), undefined);
    writeFileSync(cacheFile, kept.subarray(0, kept.length - 1000));
    assert.equal(readKeptCode(cacheFile, maker), undefined, 'a cut file');
    const again = startBundle(bundle, cacheFile);
    assert.equal(again.fromKeptCode, false);
    again.keep();
    assert.equal(startBundle(bundle, cacheFile).fromKeptCode, true, 'the damaged file was replaced');
  });

  it('runs on when the code cannot be kept', () => {
    writeBundle('first');
    const blocked = path.join(dir, 'a-file');
    writeFileSync(blocked, '');
    const unkeepable = path.join(blocked, 'code', 'plan.bin');
    startBundle(bundle, unkeepable).keep();
    keepCode(unkeepable, 'anyone', Buffer.from('code'));
    assert.equal(existsSync(unkeepable), false);
    assert.equal(seen.codeCacheSeen?.runs.length, 1);
  });

  it('names a file per command and one for anything else, in the cache folder', () => {
    const env = { CONVAI_CACHE_DIR: '/c' };
    assert.equal(codeCacheFile(env, 'plan'), path.join('/c', 'code', 'plan.bin'));
    assert.equal(codeCacheFile(env, '--help'), path.join('/c', 'code', 'other.bin'));
    assert.equal(codeCacheFile(env, '../../x'), path.join('/c', 'code', 'other.bin'));
    assert.equal(codeCacheFile(env, undefined), path.join('/c', 'code', 'other.bin'));
    if (process.platform === 'linux') assert.equal(userCacheDir({ XDG_CACHE_HOME: '/x' }), path.join('/x', 'convai-config'));
  });

  it('dist/cli.js keeps a command\'s code after it succeeds, and none after it fails', function () {
    this.timeout(20_000);
    const env = { ...process.env, CONVAI_CACHE_DIR: path.join(dir, 'cache') };
    const cli = path.join(repoRoot, 'dist', 'cli.js');
    const runs = [['--version'], ['--version'], ['nosuchcommand']].map((args) => spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' }));
    assert.equal(runs[0]?.stdout, runs[1]?.stdout, 'the same answer from kept code');
    assert.match(runs[1]?.stdout ?? '', /^\d+\.\d+\.\d+/);
    assert.notEqual(runs[2]?.status, 0);
    assert.deepEqual(readdirSync(path.join(dir, 'cache', 'code')), ['other.bin']);
    const commandFailed = spawnSync(process.execPath, [cli, 'plan', path.join(dir, 'no-folder')], { env, encoding: 'utf8' });
    assert.notEqual(commandFailed.status, 0);
    assert.deepEqual(readdirSync(path.join(dir, 'cache', 'code')), ['other.bin'], 'a failed plan keeps nothing');
  });
});
