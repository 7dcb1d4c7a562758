/**
 * The write thread's own script (write-thread.ts starts it): each message is a batch of files with absolute paths
 * the folder checked already, written in order with the folder's flags; the answer says how many were written and,
 * when one failed, why. Nothing here decides what is safe to write: the folder did.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { WriteBatch, WriteOutcome } from './write-thread';

const { flag } = workerData as { flag: number };
// writeFileSync takes numeric flags (O_NOFOLLOW among them) in one native call; its types admit only strings.
const options = { encoding: 'utf8', flag: flag as unknown as string } as const;

parentPort?.on('message', ({ files }: WriteBatch) => {
  let written = 0;
  let outcome: WriteOutcome;
  try {
    for (const [file, text] of files) {
      writeFileSync(file, text, options);
      written++;
    }
    outcome = { written };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    outcome = { written, error: { message, ...(code === undefined ? {} : { code }) } };
  }
  parentPort?.postMessage(outcome);
});
