/** `plan [--json] [--format text|markdown] [--drift] [--out <file>] <folder>`: what a push would send, read-only. */
import { findDrift, publicDrifted, type Drifted } from '../core/tenant/drift';
import { planPush, type Plan } from '../core/tenant/plan';
import { planMarkdown } from '../core/tenant/plan-markdown';
import { planVerdict } from '../core/tenant/plan-verdict';
import { behaviourFrom } from './behaviour-reports';
import { formatOption } from './arguments';
import { EXIT, UsageError, type ArgValue, type Command } from './command';
import { driftNotes, planDriftLines } from './drift-format';
import { planJson, planLines } from './format';
import { outPath, writeSavedPlan } from './saved-plans';
import { folderArgument, manifestTarget, pulledFolder, withClient } from './service';

/** What --format takes; CI's workflow file is checked against it. */
export const PLAN_FORMATS = ['text', 'markdown'] as const;

/** `--json` keeps its own flag beside `--format`, as scripts already use it. */
function formatFrom(value: ArgValue, json: boolean): (typeof PLAN_FORMATS)[number] {
  const format = formatOption(value, PLAN_FORMATS, 'plan', ' (or --json for JSON)');
  if (json && format !== 'text')
    throw new UsageError(`plan prints one format: give --json or --format ${format}, not both.`);
  return format;
}

/** Drift the plan does not already show: a resource the folder changes is the plan's own (an update, a delete, a conflict). */
function untouched(plan: Plan, drift: Drifted[]): Drifted[] {
  const changed = new Set(plan.changes.flatMap((c) => (c.id === undefined ? [] : [`${c.segment}/${c.id}`])));
  return drift.filter((d) => !changed.has(`${d.segment}/${d.id}`));
}

export const planCommand: Command = {
  name: 'plan',
  summary: "show what a push would send (the base URL comes from the folder's manifest)",
  usage: '[--json] [--format text|markdown] [--tests <report>]… [--drift] [--out <file>] <folder>',
  details: [
    '--json    print { "changes": [ { action, segment, id?, name, fields } ], "problems": [ … ] } (with --drift, also "drift": [ { segment, id, name, change, fields } ])',
    "--format markdown  print the plan for a pull request's comment: summary, problems, notes, a collapsible section per change (texts as diffs), at most 60,000 characters",
    '--tests <report>  with --format markdown, add a Behaviour section after the summary: each case of these test --json --trial <folder> --compare reports (one per shard of a run), regressed first, then improved, then the rest, with its live and trial passes; a case in two reports is an error',
    '--drift   also ask the service what changed there since the pull, and note what of it the folder does not change; without it a plan reads only the folder (and asks the service only about the resources the folder changes)',
    '--out <file>  also write a saved plan there (outside the folder, or a dotfile in it), for push --plan: the changes and',
    '              what each was planned against, no credential; a plan with a conflict or a problem is not written;',
    '              never over a manifest, a push journal, a suite or through a symbolic link',
    'Exits 1 when the plan holds a conflict or a problem, as a push would send nothing.',
  ],
  options: {
    json: { type: 'boolean' },
    format: { type: 'string' },
    drift: { type: 'boolean' },
    out: { type: 'string' },
    tests: { type: 'string', multiple: true },
  },
  // A plan a push would refuse (a conflict or a problem) fails, so a pull request's check shows it before the merge.
  async run(args, context) {
    const format = formatFrom(args.values.format, args.values.json === true);
    const folder = await pulledFolder(folderArgument(args, context, 'plan'));
    const out = await outPath(args.values.out, folder, context);
    const withDrift = args.values.drift === true;
    const behaviour = await behaviourFrom(args.values.tests, format, context.cwd);
    const { plan, drift } = await withClient(manifestTarget(folder, context.env), context.env, async (client) => {
      const planned = await planPush(client, folder.io, { loaded: folder.loaded });
      // Asked after the plan, of the manifest as the plan left it (a lost answer settled, say).
      return {
        plan: planned,
        drift: withDrift
          ? untouched(
              planned,
              await findDrift(client, folder.io, { loaded: { manifest: planned.manifest, problems: [] } }),
            )
          : undefined,
      };
    });
    for (const note of plan.notes) context.err(`note: ${note}`);
    if (args.values.json === true) context.document(planJson(plan, drift ? { drift: drift.map(publicDrifted) } : {}));
    else if (format === 'markdown')
      context.document(planMarkdown(plan, { notes: drift ? driftNotes(drift) : [], behaviour }).trimEnd());
    else
      for (const line of [...planLines(plan, folder.root), ...(drift ? planDriftLines(drift) : [])]) context.out(line);
    if (out !== undefined && !(await writeSavedPlan(plan, folder, out, context))) return EXIT.failed;
    const verdict = planVerdict(plan);
    if (verdict.pushable) return EXIT.ok;
    context.err(verdict.sentence);
    return EXIT.failed;
  },
};
