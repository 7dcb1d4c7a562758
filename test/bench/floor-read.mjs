// @ts-check
// The floor of the bench's plan row: reading a pulled folder, plainly. Every file's text, and JSON.parse of each
// .json one; node's own start is the rest of the floor. Usage: node floor-read.mjs <folder>
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [folder] = process.argv.slice(2);
if (!folder) throw new Error('usage: node floor-read.mjs <folder>');
for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  if (entry.name.endsWith('.json')) JSON.parse(text);
}
