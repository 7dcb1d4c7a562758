// @ts-check
// `npm run service -- --port <port> --admin-token <token>`: the local service
// with its sample data. Bundled on the fly so it never runs stale code.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'out', 'service', 'main.js');

await build({
  entryPoints: [path.join(root, 'test/service/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});

const child = spawn(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
