/**
 * The folder thread's own script (folder-thread.ts starts it). A message is a batch of files to write, in order with
 * the folder's flags, or of files to stamp; every path is absolute and was checked by the folder already. Nothing here
 * decides what is safe to touch: the folder did.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { stampsOnDisk } from './file-stamps';
import type { FolderTask, StatOutcome, WriteOutcome } from './folder-thread';

const { flag } = workerData as { flag: number };
// writeFileSync takes numeric flags (O_NOFOLLOW among them) in one native call; its types admit only strings.
const options = { encoding: 'utf8', flag: flag as unknown as string } as const;

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

parentPort?.on('message', (task: FolderTask) => {
  if (task.kind === 'write') parentPort?.postMessage(write(task.files));
  else {
    const outcome: StatOutcome = { stamps: stampsOnDisk(task.files) };
    parentPort?.postMessage(outcome, [outcome.stamps.buffer as ArrayBuffer]);
  }
});
