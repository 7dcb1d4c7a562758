/**
 * The writer worker's own script (writer-worker.ts starts it). A message is a batch of files to write, in order, with
 * the folder's open flags; every path is absolute and was checked by the folder already. Nothing here decides what is
 * safe to touch: the folder did.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { WriteOutcome } from './writer-worker';

const { flags } = workerData as { flags: number };
// writeFileSync takes numeric flags (O_NOFOLLOW among them); its types admit only strings.
const options = { encoding: 'utf8', flag: flags as unknown as string } as const;

function write(files: ReadonlyArray<readonly [string, string]>): WriteOutcome {
  let written = 0;
  try {
    for (const [file, text] of files) {
      writeFileSync(file, text, options);
      written++;
    }
    return { written };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { written, error: { message, ...(code === undefined ? {} : { code }) } };
  }
}

// Blocking calls on purpose: this thread does nothing else, and the caller's goes on meanwhile.
parentPort?.on('message', (files: ReadonlyArray<readonly [string, string]>) => parentPort?.postMessage(write(files)));
