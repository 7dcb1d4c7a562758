/**
 * The order a push sends a plan's changes in: conflicts first (never sent), then creates and updates so that what is
 * named exists before what names it, kinds first and then references to new files, and deletes the other way.
 */
import type { Segment } from '../resource-kind';
import { MANIFEST_FILE } from './manifest';
import type { FolderProblem } from './folder-problems';
import type { LocalResource } from './folder-scan';
import { fileReferences } from './plan-problems';

/** Creates and updates go in this order of kinds: what is named before what names it; deletes go the other way. */
const ORDER: readonly Segment[] = [
  'tenants',
  'integrations',
  'ai_functions',
  'ai_prompts',
  'ai_actions',
  'agents',
  'intents',
  'datasources',
];

/** What the order needs of a change: the plan's changes, whatever else they hold. */
interface Ordered {
  action: 'create' | 'update' | 'delete' | 'conflict';
  segment: Segment;
  file: string;
}

/** Creates and updates in dependency order (kinds, then references to new files); a cycle is a problem. */
export function ordered<Change extends Ordered>(
  changes: Change[],
  local: Map<string, LocalResource>,
  problems: FolderProblem[],
): Change[] {
  const sends = changes.filter((c) => c.action === 'create' || c.action === 'update');
  const byFile = new Map(sends.map((c) => [c.file, c]));
  const rank = (c: Change): number => ORDER.indexOf(c.segment);
  const pending = [...sends].sort((a, b) => rank(a) - rank(b) || a.file.localeCompare(b.file));
  const out: Change[] = [];
  const done = new Set<string>();
  while (pending.length > 0) {
    const index = pending.findIndex((c) =>
      fileReferences(c.segment, local.get(c.file)?.values ?? {}).every(
        ({ file }) => done.has(file) || !byFile.has(file) || byFile.get(file)?.action !== 'create',
      ),
    );
    if (index < 0) {
      problems.push({
        file: pending[0]?.file ?? MANIFEST_FILE,
        message: `new resources name each other in a circle (${pending.map((c) => c.file).join(', ')}); create one of them first without the reference, then add it`,
      });
      out.push(...pending);
      break;
    }
    const [next] = pending.splice(index, 1) as [Change];
    done.add(next.file);
    out.push(next);
  }
  const deletes = changes
    .filter((c) => c.action === 'delete')
    .sort((a, b) => rank(b) - rank(a) || a.file.localeCompare(b.file));
  return [...changes.filter((c) => c.action === 'conflict'), ...out, ...deletes];
}
