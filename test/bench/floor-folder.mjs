// @ts-check
// Reading a pulled folder, plainly: every file's text, and JSON.parse of each .json one. The floors of plan and push.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** @param {string} folder */
export function readFolder(folder) {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    if (entry.name.endsWith('.json')) JSON.parse(text);
  }
}
