/**
 * A thread that works on a folder's files while the one that asked goes on: a pull of 65,000 resources spends as long
 * writing 165,000 files as fetching them, and with the writes here its next batch's requests run beside them; a scan
 * of that folder stamps half its files here while it stamps the other half itself. Tasks are done in the order given.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StampTable } from './file-stamps';

export type FolderTask =
  /** Absolute paths, checked by the folder, and their texts. */
  | { kind: 'write'; files: ReadonlyArray<readonly [string, string]> }
  /** Absolute paths, checked by the folder; an empty one is skipped. */
  | { kind: 'stat'; files: readonly string[] };

export interface WriteOutcome {
  written: number;
  error?: { message: string; code?: string };
}

export interface StatOutcome {
  stamps: StampTable;
}

/** A batch stopped at a file that could not be written: the files before it were. */
export class PartialWriteError extends Error {
  constructor(readonly written: number, override readonly cause: Error) {
    super(cause.message);
    this.name = 'PartialWriteError';
  }
}

export interface FolderThread {
  write(files: ReadonlyArray<readonly [string, string]>): Promise<WriteOutcome>;
  stat(files: readonly string[]): Promise<StampTable>;
  /** Waits for what was handed over, then ends the thread. */
  close(): Promise<void>;
}

/** The script beside this module's bundle: dist/ holds both bundles, out/ the compiled modules side by side. */
const script = path.join(__dirname, 'folder-thread-worker.js');

/** A thread writing with `flag` (the folder's open flags). */
export function startFolderThread(flag: number): FolderThread {
  const worker = new Worker(script, { workerData: { flag } });
  const waiting: Array<{ resolve: (outcome: WriteOutcome & StatOutcome) => void; reject: (error: Error) => void }> = [];
  let stopped: Error | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const stop = (error: Error): void => {
    stopped ??= error;
    for (const { reject } of waiting.splice(0)) reject(stopped);
  };
  worker.on('message', (outcome: WriteOutcome & StatOutcome) => {
    waiting.shift()?.resolve(outcome);
    // Idle, it keeps no process alive: a command ends when its work does.
    if (waiting.length === 0) worker.unref();
  });
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the folder's thread stopped (exit code ${code})`)));
  worker.unref();
  const run = (task: FolderTask): Promise<WriteOutcome & StatOutcome> => {
    if (stopped) return Promise.reject(stopped);
    worker.ref();
    const done = new Promise<WriteOutcome & StatOutcome>((resolve, reject) => waiting.push({ resolve, reject }));
    worker.postMessage(task);
    last = done.catch(() => undefined);
    return done;
  };
  return {
    write: (files) => run({ kind: 'write', files }),
    stat: async (files) => (await run({ kind: 'stat', files })).stamps,
    async close() {
      await last;
      stop(new Error("the folder's thread was closed"));
      await worker.terminate();
    },
  };
}
