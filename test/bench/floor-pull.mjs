// @ts-check
// The floor of the bench's pull rows: what any pull must do, plainly. The same GETs as `convai pull` (the tenant,
// each kind's list, each listed resource's detail), four at a time on one undici pool, every answer parsed; then the
// same files, written with their texts as given. Without a folder, only the GETs: the floor of the drift row, which
// asks the same of the service and writes nothing. Usage, with CONVAI_TOKEN set:
//   node floor-pull.mjs <undici bundle> <spec.json> [<new folder>]
// where the spec is { origin, tenant, collections, query, files: [[path, text], …] } (test/bench/folders.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fourAtATime, requester } from './floor-requests.mjs';

const [undiciFile, specFile, folder] = process.argv.slice(2);
if (!undiciFile || !specFile) throw new Error('usage: node floor-pull.mjs <undici bundle> <spec.json> [<new folder>]');
/** @type {{ origin: string, tenant: string, collections: string[], query: string, files: [string, string][] }} */
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const { get, close } = requester(undiciFile, spec.origin);

await get(spec.tenant);
const lists = await fourAtATime(spec.collections, (collection) => get(`${collection}${spec.query}`));
const details = spec.collections.flatMap((collection, index) =>
  lists[index].map((/** @type {{ id: number }} */ item) => `${collection}/${item.id}${spec.query}`),
);
await fourAtATime(details, get);
await close();

const made = new Set();
for (const [file, text] of folder ? spec.files : []) {
  const target = path.join(folder, file);
  const dir = path.dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(target, text);
}
