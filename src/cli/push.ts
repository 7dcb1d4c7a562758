/** `push [--json] <folder>`: plans, then sends the plan, without a prompt (CI runs it). */
import { readManifest } from '../core/tenant/manifest';
import { planPush, type PlannedChange } from '../core/tenant/plan';
import { tenantRecord } from '../core/tenant/tenant-listing';
import { push, type PushResult } from '../core/tenant/push';
import { SavedPlanError } from '../core/tenant/saved-plan';
import { verifySavedPlan } from '../core/tenant/saved-plan-check';
import { EXIT, UsageError, type CliContext, type Command } from './command';
import { plural } from '../core/text';
import { failure } from './failure';
import { appliedLine, notTakenLine, pushJson } from './format';
import { readSavedPlan } from './saved-plans';
import { folderArgument, manifestTarget, pulledFolder, withClient, type PulledFolder } from './service';

/** A push that failed after it started: what went before was applied, and recorded in the folder. */
class PushStopped extends Error {
  constructor(
    readonly reason: unknown,
    readonly applied: PlannedChange[],
    readonly total: number,
  ) {
    super('push stopped');
  }
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

async function printApplied(applied: PlannedChange[], folder: PulledFolder, context: CliContext): Promise<void> {
  // A created resource's id is known only now, from the manifest the push rewrote: read only when there is one, as
  // a large folder's manifest takes a while to read.
  const created = applied.some((change) => change.id === undefined);
  const ids = new Map(created ? (await readManifest(folder.io))?.resources.map((r) => [r.file, r.id]) : []);
  for (const change of applied) context.out(appliedLine(change, change.id ?? ids.get(change.file)));
}

export const pushCommand: Command = {
  name: 'push',
  summary: "send the folder's changes to the service, in the plan's order; nothing when the plan holds a conflict",
  usage: '[--json] [--plan <file>] <folder>',
  details: [
    '--json  print { "applied": [ { action, segment, id?, name, fields } ], "notTaken": [ … ] }',
    "--plan <file>  send exactly the plan plan --out saved there, in its order; when a file of the folder or the service's",
    '               state of a resource in it changed since, send nothing, name what moved and exit 1; the same when the',
    "               plan's own file was altered after it was saved (it carries a digest of its content), naming that file",
    'Exits 1 when the push is refused (a conflict or a problem), a request fails, or the service did not take a field as sent.',
  ],
  options: { json: { type: 'boolean' }, plan: { type: 'string' } },
  async run(args, context) {
    const folder = await pulledFolder(folderArgument(args, context, 'push'));
    const savedPlan = await readSavedPlan(args.values.plan, context);
    const target = manifestTarget(folder, context.env);
    const json = args.values.json === true;
    let result: PushResult;
    // Ctrl+C starts nothing more: what is under way finishes and is recorded, then the push ends with 130.
    const stopper = new AbortController();
    const release = context.onInterrupt?.(() => stopper.abort());
    try {
      result = await withClient(target, context.env, async (client) => {
        const plan = savedPlan
          ? await verifySavedPlan(client, folder.io, savedPlan.saved, {
              file: savedPlan.file,
              loaded: folder.loaded,
            }).catch((error: unknown) => {
              throw error instanceof SavedPlanError ? new UsageError(`--plan: ${error.message}.`) : error;
            })
          : await planPush(client, folder.io, { loaded: folder.loaded });
        // A plan without changes asked the service nothing, and a token the service rejects must still fail.
        if (plan.changes.length === 0) await tenantRecord(client, folder.manifest.tenantId, {});
        for (const note of plan.notes) context.err(`note: ${note}`);
        const applied: PlannedChange[] = [];
        const onProgress = (change: PlannedChange): void => {
          applied.push(change);
          context.progress?.show(`push: ${applied.length} of ${plural(plan.changes.length, 'change')}`);
        };
        try {
          // Right after its own plan, the details it read stand for the service's state (a saved plan's are older).
          // A saved plan is sent in its order, one change at a time, as the contract promises of it.
          const sending = savedPlan ? { concurrency: 1 } : { justPlanned: true };
          return await push(client, folder.io, plan, { ...sending, signal: stopper.signal, onProgress });
        } catch (error) {
          const done = new Set(applied);
          throw new PushStopped(
            error,
            plan.changes.filter((change) => done.has(change)),
            plan.changes.length,
          );
        } finally {
          context.progress?.clear();
        }
      });
    } catch (error) {
      if (!(error instanceof PushStopped)) throw error;
      const interrupted = stopper.signal.aborted;
      const { code, message } = interrupted
        ? { code: EXIT.interrupted, message: 'Stopped by Ctrl+C' }
        : failure(error.reason);
      if (json) context.document(pushJson({ applied: error.applied, notTaken: [] }));
      else await printApplied(error.applied, folder, context);
      context.err(
        error.applied.length === 0
          ? message
          : `${sentence(message)} ${error.applied.length} of ${error.total} changes were applied before it and are recorded in the folder; fix the cause, then run push again to send the rest.`,
      );
      return code;
    } finally {
      release?.();
    }
    if (json) context.document(pushJson(result));
    else if (result.applied.length === 0) context.out('Nothing to push: no change in the folder since the pull.');
    else await printApplied(result.applied, folder, context);
    for (const missed of result.notTaken) context.err(notTakenLine(missed));
    return result.notTaken.length > 0 ? EXIT.failed : EXIT.ok;
  },
};
