/**
 * The command-line tool (dist/cli.js): tenant folders pulled, planned and
 * pushed from a terminal or CI, a second thin shell over the same core as the
 * extension. See src/cli/ for the commands.
 */
import { main } from './cli/main';
import { terminalProgress } from './cli/progress';

// A reader that stops early (`plan | head`) must neither stop a push midway nor end it with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE')
    process.stderr.write(`The output could not be written (${error.message}); check where stdout goes.\n`);
});

void main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  document: (text) => process.stdout.write(`${text}\n`),
  ...(process.stderr.isTTY ? { progress: terminalProgress(process.stderr) } : {}),
  // once: a second Ctrl+C ends the process as usual, should stopping cleanly hang.
  onInterrupt: (stop) => {
    process.once('SIGINT', stop);
    return () => process.off('SIGINT', stop);
  },
}).then((code) => {
  // exitCode, not exit(): the last lines written to a pipe still reach it.
  process.exitCode = code;
});
