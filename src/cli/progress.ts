/** Progress of long work on a terminal: one line of counts on stderr, rewritten in place, never in a log or a pipe. */
import { LIMITS } from '../core/limits';
import type { Progress } from './command';

export function terminalProgress(stream: NodeJS.WriteStream): Progress {
  let last = 0;
  let shown = false;
  return {
    show(line) {
      const now = Date.now();
      if (now - last < LIMITS.progressReports.value) return;
      last = now;
      stream.write(`\r${line}\x1b[K`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
      last = 0;
    },
  };
}
