// @ts-check
// The floor of the bench's plan rows: reading a pulled folder, plainly (floor-folder.mjs); node's own start is the
// rest of the floor. Usage: node floor-read.mjs <folder>
import { readFolder } from './floor-folder.mjs';

const [folder] = process.argv.slice(2);
if (!folder) throw new Error('usage: node floor-read.mjs <folder>');
readFolder(folder);
