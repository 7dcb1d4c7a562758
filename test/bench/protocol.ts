// What the bench's harness and its entry inside VS Code's extension host tell each other: environment variables in,
// one samples file out, and a file that lets the entry (and with it the trees) go once the harness is done.
import * as path from 'node:path';

/** The extension host's environment: besides extensionTestEnv's, these. */
export const benchEnv = {
  /** The folder of the exchange files. */
  dir: 'CONVAI_BENCH_DIR',
  /** The undici-only bundle (scripts/bench.mjs builds it). */
  undiciBundle: 'CONVAI_BENCH_UNDICI_BUNDLE',
  /** The JS files the extension ships for the extension host, joined by path.delimiter. */
  extensionBundles: 'CONVAI_BENCH_EXTENSION_BUNDLES',
  /** Which of the VS Code sessions this is, from 0: decides who goes first where order could matter. */
  session: 'CONVAI_BENCH_SESSION',
} as const;

/** The connection name the entry adds to the extension, and the authority of the floor's URIs. */
export const benchConnection = 'bench';

/** The floor file system's scheme; its paths are those of the `convai:` URIs. */
export const floorScheme = 'convai-floor';

/** The floor tree's view, contributed by test/bench/floor-extension. */
export const floorViewId = 'convaiBenchFloor.tree';

export interface Pair {
  candidate: number;
  floor: number;
}

/** The prompts each side opened or saved: the service's request log tells how many requests each took. */
export interface UsedPrompts {
  candidate: number[];
  floor: number[];
}

/** One extension host's samples in milliseconds, interleaved candidate and floor. */
export interface HostSamples {
  activation: Pair;
  open: Pair[];
  save: Pair[];
  listing: Pair[];
  opened: UsedPrompts;
  saved: UsedPrompts;
  /** On the large tenant (host/large.ts). */
  large: { firstLevel: Pair[]; goToResource: Pair[]; completion: Pair[] };
}

export type HostReport = { ok: true; samples: HostSamples } | { ok: false; error: string };

export function samplesFile(dir: string): string {
  return path.join(dir, 'samples.json');
}

export function doneFile(dir: string): string {
  return path.join(dir, 'done');
}

/** The extension host's memory at one moment, in bytes, after a full garbage collection. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
}

/** The host memory session's entry, once it has its baseline and has opened the documents: what Go to Resource finds. */
export type MemoryReady = { ok: true; find: { id: number; name: string } } | { ok: false; error: string };

/** The host memory session's result: the extension host before and after browsing the large tenant. */
export type MemoryReport = { ok: true; before: MemorySample; after: MemorySample } | { ok: false; error: string };

/** The host memory entry writes it when the harness may browse. */
export function readyFile(dir: string): string {
  return path.join(dir, 'ready.json');
}

/** The harness writes it when it has browsed: the entry measures again. */
export function browsedFile(dir: string): string {
  return path.join(dir, 'browsed');
}
