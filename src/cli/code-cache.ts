/**
 * The command-line tool's start from V8's code of an earlier run. A command otherwise parses the whole bundle and
 * compiles each function it runs anew, some 15 ms of the 110 a plan of an unchanged 1,000-prompt folder takes past
 * node's own start; Node 22's compile cache does the same, Node 20 has none. The code is kept per command in the
 * cache folder (src/core/cache-dir.ts), taken only for the very bundle and node it was made by, and checked whole
 * before V8 reads it: V8 takes code of another source of the same length, and ends the process on a damaged one.
 * A function taken from kept code cannot `import()` (node has no loader for it there), so the tool's bundle has none
 * (test/unit/code-cache.test.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { userCacheDir } from '../core/cache-dir';

const HEADER = 'convai-code-cache 1';

/** A command's name names its file; anything else (`--help`, a typo) shares one. */
export function codeCacheFile(env: NodeJS.ProcessEnv, command: string | undefined): string {
  const name = command !== undefined && /^[a-z]{1,20}$/.test(command) ? command : 'other';
  return path.join(userCacheDir(env), 'code', `${name}.bin`);
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What the kept code must have been made by: this bundle's text, this node, this machine's kind. */
function madeBy(source: string): string {
  return `${sha256(source)} ${process.version} ${process.arch}`;
}

/** The code kept in `file` for `maker`, whole; undefined when there is none, or it is another's, or damaged. */
export function readKeptCode(file: string, maker: string): Buffer | undefined {
  let kept: Buffer;
  try {
    kept = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = kept.indexOf(10);
  if (end < 0) return undefined;
  const [header, version, bundle, node, arch, digest] = kept.subarray(0, end).toString('latin1').split(' ');
  const code = kept.subarray(end + 1);
  if (`${header} ${version}` !== HEADER || `${bundle} ${node} ${arch}` !== maker || digest !== sha256(code)) return undefined;
  return code;
}

/** Keeps `code` for `maker` in `file`, whole or not at all (another run may read it meanwhile); a failure is no error. */
export function keepCode(file: string, maker: string, code: Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(partial, Buffer.concat([Buffer.from(`${HEADER} ${maker} ${sha256(code)}\n`, 'latin1'), code]));
    renameSync(partial, file);
  } catch {
    // The next run compiles again, as it would without the cache.
  }
}

export interface StartedBundle {
  /** Whether V8 took the kept code. */
  readonly fromKeptCode: boolean;
  /** Keeps the code compiled so far for the next run, when none was taken. */
  keep(): void;
}

/**
 * Runs the CommonJS bundle at `bundle` as node would, its `require` resolving from its folder, from the code kept in
 * `cacheFile` when there is any for it.
 */
export function startBundle(bundle: string, cacheFile: string): StartedBundle {
  const source = readFileSync(bundle, 'utf8');
  const maker = madeBy(source);
  const kept = readKeptCode(cacheFile, maker);
  const script = new Script(wrap(source), { filename: bundle, ...(kept ? { cachedData: kept } : {}) });
  const fromKeptCode = kept !== undefined && !script.cachedDataRejected;
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  return { fromKeptCode, keep: () => (fromKeptCode ? undefined : keepCode(cacheFile, maker, script.createCachedData())) };
}
