/** `drift [--json] <folder>`: what changed on the service since the pull, read-only. */
import { findDrift, publicDrifted } from '../core/tenant/drift';
import { EXIT, type Command } from './command';
import { driftLines } from './drift-format';
import { folderArgument, manifestTarget, pulledFolder, withClient } from './service';

export const driftCommand: Command = {
  name: 'drift',
  summary:
    "list what changed, appeared or disappeared on the service since the pull (the base URL comes from the folder's manifest)",
  usage: '[--json] <folder>',
  details: [
    '--json  print { "drifted": [ { segment, id, name, change: "changed" | "created" | "deleted", fields } ] }',
    'Exits 0 when the service holds what was pulled, 1 when something drifted or a request failed.',
  ],
  options: { json: { type: 'boolean' } },
  // Drift fails like a plan's conflict would, so a scheduled CI job shows it.
  async run(args, context) {
    const folder = await pulledFolder(folderArgument(args, context, 'drift'));
    const drift = await withClient(manifestTarget(folder, context.env), context.env, (client) =>
      findDrift(client, folder.io, { loaded: folder.loaded }),
    );
    if (args.values.json === true) context.document(JSON.stringify({ drifted: drift.map(publicDrifted) }, null, 2));
    else for (const line of driftLines(drift, folder.manifest, folder.root)) context.out(line);
    return drift.length === 0 ? EXIT.ok : EXIT.failed;
  },
};
