// Activation against requiring an undici-only bundle, in the same fresh extension host. Each is timed once, the
// first time this host loads it: the extension's activate() includes requiring its bundle.
import * as fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { Pair } from '../protocol';
import { collectGarbage } from './collect';

export const extensionId = 'convai.convai-config';

const load = createRequire(__filename);

/**
 * Loads the Node built-ins the bundles require before either is timed: whichever went first would otherwise pay
 * for loading them, and the order would decide the ratio.
 */
function preloadBuiltins(bundles: readonly string[]): void {
  for (const file of bundles) {
    for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
      if (name && isBuiltin(name)) load(name);
    }
  }
}

/** Each side starts from a collected heap: neither then pays for the garbage the other (or the host's start) left. */
async function timed(work: () => unknown): Promise<number> {
  collectGarbage();
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Even sessions time the floor first, odd ones the extension first. */
export async function measureActivation(
  undiciBundle: string,
  extensionBundles: readonly string[],
  session: number,
): Promise<Pair> {
  const extension = vscode.extensions.getExtension(extensionId);
  if (!extension)
    throw new Error(`${extensionId} is not loaded: the bench loads it as the extension under development`);
  if (extension.isActive)
    throw new Error(`${extensionId} was activated before the bench asked: its activation cannot be timed`);
  preloadBuiltins([undiciBundle, ...extensionBundles]);
  const floor = (): Promise<number> => timed(() => load(undiciBundle));
  const candidate = (): Promise<number> => timed(() => extension.activate());
  if (session % 2 === 0) {
    const f = await floor();
    return { floor: f, candidate: await candidate() };
  }
  const c = await candidate();
  return { candidate: c, floor: await floor() };
}

/** The undici the floor's round trips use: the bundle itself, loaded (and timed) already. */
export function undiciOf(undiciBundle: string): typeof import('undici') {
  return load(undiciBundle) as typeof import('undici');
}
