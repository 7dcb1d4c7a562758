/** Progress of long work on a terminal: one line of counts on stderr, rewritten in place, never in a log or a pipe. */
import type { Progress } from './command';

/** At most this often a line is rewritten: a pull counts 65,000 resources, and a terminal need not show each. */
const EVERY_MS = 100;

export function terminalProgress(stream: NodeJS.WriteStream): Progress {
  let last = 0;
  let shown = false;
  return {
    show(line) {
      const now = Date.now();
      if (now - last < EVERY_MS) return;
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
