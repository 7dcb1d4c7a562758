// `npm run bench -- [--only <group>]…`: which groups of rows one run measures. The default is all of them; one
// group alone is for iterating on it (the table then holds only its rows).
import { parseArgs } from 'node:util';

export const benchGroups = ['extension', 'folders', 'map', 'suites'] as const;
export type BenchGroup = (typeof benchGroups)[number];

export type BenchArgs = { help: true } | { help: false; groups: BenchGroup[] };

export const benchUsage: readonly string[] = [
  'Usage: npm run bench [-- [--only <group>]…]',
  '',
  '  --only extension  the extension in code-server: activation, size, open, save, listing, validate, expand, and on',
  "                    the large tenant the tree's first level, Go to Resource, completion and host memory",
  '  --only folders    the command-line tool on a tenant folder of 1,000 prompts (pull, pull again, plan, drift)',
  '                    and of the large tenant (pull and its memory, plan, push of 100 edited prompts)',
  '  --only map       the flow map of a tenant of 1,000 resources: its model from a folder, its layout and drawing',
  '  --only suites     a 100-case prompt suite at concurrency 4 vs serially, against a service of fixed latency',
  '',
  'Without --only, every group runs. Exit codes: 0 every figure within its goal, 1 a figure outside it, 2 the',
  'bench could not measure.',
];

function isGroup(value: string): value is BenchGroup {
  return (benchGroups as readonly string[]).includes(value);
}

/** Throws on an unknown option or group, with the usage's words, so a typo never runs the whole bench. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { only: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help === true) return { help: true };
  const only = values.only ?? [...benchGroups];
  const unknown = only.filter((group) => !isGroup(group));
  if (unknown.length > 0) throw new Error(`--only ${unknown[0]}: no such group; use one of ${benchGroups.join(', ')}`);
  return { help: false, groups: benchGroups.filter((group) => only.includes(group)) };
}
