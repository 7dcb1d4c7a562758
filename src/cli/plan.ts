/** `plan [--json] [--format text|markdown] [--out <file>] <folder>`: what a push would send, read-only. */
import { planPush } from '../core/tenant/plan';
import { planMarkdown } from '../core/tenant/plan-markdown';
import { EXIT, UsageError, type ArgValue, type Command } from './command';
import { planJson, planLines } from './format';
import { outPath, writeSavedPlan } from './saved-plans';
import { folderArgument, manifestTarget, pulledFolder, withClient } from './service';
import { plural } from '../core/text';

/** What --format takes; CI's workflow file is checked against it. */
export const PLAN_FORMATS = ['text', 'markdown'] as const;

/** `--format`, checked before anything is read or sent; `--json` keeps its own flag, as scripts already use it. */
function formatFrom(value: ArgValue, json: boolean): (typeof PLAN_FORMATS)[number] {
  if (value === undefined) return 'text';
  const format = PLAN_FORMATS.find((f) => f === value);
  if (!format) throw new UsageError(`--format "${String(value)}" is not a format of plan: give one of ${PLAN_FORMATS.join(', ')} (or --json for JSON).`);
  if (json && format !== 'text') throw new UsageError(`plan prints one format: give --json or --format ${format}, not both.`);
  return format;
}

export const planCommand: Command = {
  name: 'plan',
  summary: 'show what a push would send (the base URL comes from the folder\'s manifest)',
  usage: '[--json] [--format text|markdown] [--out <file>] <folder>',
  details: [
    '--json  print { "changes": [ { action, segment, id?, name, fields } ], "problems": [ … ] }',
    '--format markdown  print the plan for a pull request\'s comment: summary, problems, notes, a collapsible section per change (texts as diffs), at most 60,000 characters',
    '--out <file>  also write a saved plan there (outside the folder, or a dotfile in it), for push --plan: the changes and',
    '              what each was planned against, no credential; a plan with a conflict or a problem is not written',
    'Exits 1 when the plan holds a conflict or a problem, as a push would send nothing.',
  ],
  options: { json: { type: 'boolean' }, format: { type: 'string' }, out: { type: 'string' } },
  // A plan a push would refuse (a conflict or a problem) fails, so a pull request's check shows it before the merge.
  async run(args, context) {
    const format = formatFrom(args.values.format, args.values.json === true);
    const folder = await pulledFolder(folderArgument(args, context, 'plan'));
    const out = await outPath(args.values.out, folder.root, context);
    const plan = await withClient(manifestTarget(folder, context.env), context.env, (client) => planPush(client, folder.io, { loaded: folder.loaded }));
    for (const note of plan.notes) context.err(`note: ${note}`);
    if (args.values.json === true) context.out(planJson(plan));
    else if (format === 'markdown') context.out(planMarkdown(plan).trimEnd());
    else for (const line of planLines(plan, folder.root)) context.out(line);
    const conflicts = plan.changes.filter((c) => c.action === 'conflict').length;
    const problems = plan.problems.length;
    if (out !== undefined && !await writeSavedPlan(plan, folder, out, context)) return EXIT.failed;
    if (conflicts === 0 && problems === 0) return EXIT.ok;
    const held = [conflicts > 0 ? plural(conflicts, 'conflict') : '', problems > 0 ? plural(problems, 'problem') : ''].filter(Boolean).join(' and ');
    const fixes = [conflicts > 0 ? 'pull again to take the service\'s state (changed files are kept) and merge' : '', problems > 0 ? 'fix the files named' : ''].filter(Boolean).join(', ');
    context.err(`The plan holds ${held}, so a push would send nothing: ${fixes}, then run plan again.`);
    return EXIT.failed;
  },
};
