/**
 * A thread that writes files while the one that asked goes on: a pull of 65,000 resources spends as long writing
 * 165,000 files as fetching them, and with the writes here its next batch's requests run beside them instead of
 * after. Batches are written in the order given; each settles when its files are on disk.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface WriteBatch {
  /** Absolute paths, checked by the folder, and their texts. */
  files: ReadonlyArray<readonly [string, string]>;
}

export interface WriteOutcome {
  written: number;
  error?: { message: string; code?: string };
}

/** A batch stopped at a file that could not be written: the files before it were. */
export class PartialWriteError extends Error {
  constructor(readonly written: number, override readonly cause: Error) {
    super(cause.message);
    this.name = 'PartialWriteError';
  }
}

export interface WriteThread {
  write(files: WriteBatch['files']): Promise<WriteOutcome>;
  /** Waits for what was handed over, then ends the thread. */
  close(): Promise<void>;
}

/** The script beside this module's bundle: dist/ holds both bundles, out/ the compiled modules side by side. */
const script = path.join(__dirname, 'write-thread-worker.js');

/** A thread writing with `flag` (the folder's open flags). */
export function startWriteThread(flag: number): WriteThread {
  const worker = new Worker(script, { workerData: { flag } });
  const waiting: Array<{ resolve: (outcome: WriteOutcome) => void; reject: (error: Error) => void }> = [];
  let stopped: Error | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const stop = (error: Error): void => {
    stopped ??= error;
    for (const { reject } of waiting.splice(0)) reject(stopped);
  };
  worker.on('message', (outcome: WriteOutcome) => {
    waiting.shift()?.resolve(outcome);
    // Idle, it keeps no process alive: a command ends when its work does.
    if (waiting.length === 0) worker.unref();
  });
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the folder's write thread stopped (exit code ${code})`)));
  worker.unref();
  return {
    write(files) {
      if (stopped) return Promise.reject(stopped);
      worker.ref();
      const written = new Promise<WriteOutcome>((resolve, reject) => waiting.push({ resolve, reject }));
      worker.postMessage({ files } satisfies WriteBatch);
      last = written.catch(() => undefined);
      return written;
    },
    async close() {
      await last;
      stop(new Error("the folder's write thread was closed"));
      await worker.terminate();
    },
  };
}
