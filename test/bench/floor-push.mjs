// @ts-check
// The floor of the bench's push row: what a push of N edited resources must do, plainly. Reading the folder
// (floor-folder.mjs), then the N PUTs, four at a time, every answer parsed. Usage, with CONVAI_TOKEN set:
//   node floor-push.mjs <undici bundle> <spec.json> <folder>
// where the spec is { origin, puts: [[path and query, body], …] } (test/bench/large-folders.ts).
import { readFileSync } from 'node:fs';
import { readFolder } from './floor-folder.mjs';
import { fourAtATime, requester } from './floor-requests.mjs';

const [undiciFile, specFile, folder] = process.argv.slice(2);
if (!undiciFile || !specFile || !folder)
  throw new Error('usage: node floor-push.mjs <undici bundle> <spec.json> <folder>');
/** @type {{ origin: string, puts: [string, string][] }} */
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
readFolder(folder);
const service = requester(undiciFile, spec.origin);
await fourAtATime(spec.puts, ([pathAndQuery, body]) => service.put(pathAndQuery, body));
await service.close();
