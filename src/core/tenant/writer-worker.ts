/**
 * A batch writer whose worker writes a folder's files while the caller goes
 * on: a pull of a large tenant spends as long writing its files as fetching
 * them, and with the writes on a worker its next batch's requests run beside
 * them. Batches are written in the order given. The folder checks every path
 * before it is handed over; the worker only writes.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { asError, PartialWriteError, type BatchWriter } from './folder-io';

/** What the worker answers for a batch: how many files it wrote, and why it stopped if it did. */
export interface WriteOutcome {
  written: number;
  error?: { message: string; code?: string };
}

/** The script beside this module's bundle: dist/ holds both bundles, out/ the compiled modules side by side. */
const script = path.join(__dirname, 'writer-worker-script.js');

/** A worker writing with `flags` (the folder's open flags), each batch answered in turn. */
function startWorker(flags: number): {
  write(files: Array<readonly [string, string]>): Promise<WriteOutcome>;
  close(): Promise<void>;
} {
  const worker = new Worker(script, { workerData: { flags } });
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
  worker.on('exit', (code) => stop(new Error(`the folder's writer worker stopped (exit code ${code})`)));
  worker.unref();
  return {
    write(files) {
      if (stopped) return Promise.reject(stopped);
      worker.ref();
      const done = new Promise<WriteOutcome>((resolve, reject) => waiting.push({ resolve, reject }));
      worker.postMessage(files);
      last = done.catch(() => undefined);
      return done;
    },
    async close() {
      await last;
      stop(new Error("the folder's writer worker was closed"));
      await worker.terminate();
    },
  };
}

/**
 * A batch writer over a worker started by the first batch with files (a pull into an unchanged folder writes none).
 * `target` checks a file and gives its absolute path (`now` when its folder is known already, else `checked`);
 * `refused` makes the worker's error of a file the folder's.
 */
export function workerWriter(
  flags: number,
  target: { now(file: string): string | undefined; checked(file: string): Promise<string> },
  refused: (file: string, error: Error) => unknown,
): BatchWriter {
  let worker: ReturnType<typeof startWorker> | undefined;
  let closed = false;
  return {
    async write(files) {
      if (closed) throw new Error("the folder's writer worker was closed");
      if (files.length === 0) return;
      const targets: Array<readonly [string, string]> = [];
      let stoppedAt: PartialWriteError | undefined;
      for (const [file, text] of files) {
        try {
          targets.push([target.now(file) ?? (await target.checked(file)), text]);
        } catch (error) {
          // What comes before it is written all the same, as one write after another would have.
          stoppedAt = new PartialWriteError(targets.length, asError(error));
          break;
        }
      }
      worker ??= startWorker(flags);
      const outcome = await worker.write(targets);
      if (outcome.error) {
        const failed = files[outcome.written]?.[0] ?? '';
        const cause = Object.assign(new Error(outcome.error.message), { code: outcome.error.code });
        throw new PartialWriteError(outcome.written, asError(refused(failed, cause)));
      }
      if (stoppedAt) throw stoppedAt;
    },
    async close() {
      closed = true;
      await worker?.close();
    },
  };
}
