import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes through a rename, so that a process watching for the file never reads half of it. */
export function writeFileAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, text);
  fs.renameSync(partial, file);
}
