/**
 * Whether a push would send a plan, decided once: a push sends nothing while the plan holds a conflict (changed both
 * in the folder and on the service since the pull) or a problem (what a push cannot send). Every shell asks this,
 * the command line's plan and push, the pull request's comment, VS Code's preview, push and Source Control, saved
 * plans and promotions, and says it in these words.
 */
import { plural } from '../text';
import type { PlannedChange } from './plan';

/** The heading over a plan's problems, wherever they are listed. */
export const PROBLEMS_HEADING = 'Problems (a push sends nothing until they are fixed)';

export interface PlanVerdict {
  /** A push would send the plan's changes: it holds no conflict and no problem. */
  readonly pushable: boolean;
  readonly conflicts: readonly PlannedChange[];
  readonly problems: readonly string[];
  /** What keeps a push from sending, "1 conflict and 2 problems"; empty when pushable. */
  readonly held: string;
  /** The clause a plan's summary ends with, "1 conflict, so a push sends nothing until they are resolved"; empty when pushable. */
  readonly blocked: string;
  /**
   * The plan in a line, "2 changes, sent in this order; 1 conflict, so a push sends nothing until they are resolved.",
   * or what there is when there is no change; starting lower case, to follow a colon.
   */
  readonly summary: string;
  /** The one sentence: what the plan holds, that a push would refuse it, and what to do; empty when pushable. */
  readonly sentence: string;
  /** What a push asked to send it anyway says, naming each conflict or problem; empty when pushable. */
  readonly refusal: string;
}

/**
 * The verdict on a plan. `outcome` is what the asker leaves undone because of it ("so it was not saved"), said in the
 * sentence right after the refusal.
 */
export function planVerdict(
  plan: { readonly changes: readonly PlannedChange[]; readonly problems: readonly string[] },
  outcome?: string,
): PlanVerdict {
  const conflicts = plan.changes.filter((c) => c.action === 'conflict');
  const { problems } = plan;
  const pushable = conflicts.length === 0 && problems.length === 0;
  const held = [
    conflicts.length > 0 ? plural(conflicts.length, 'conflict') : '',
    problems.length > 0 ? plural(problems.length, 'problem') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const fixes = [
    conflicts.length > 0 ? "pull again to take the service's state (changed files are kept) and merge" : '',
    problems.length > 0 ? 'fix the files named' : '',
  ]
    .filter(Boolean)
    .join(', ');
  const blocked = pushable ? '' : `${held}, so a push sends nothing until they are resolved`;
  const summary =
    plan.changes.length === 0
      ? problems.length === 0
        ? 'no change in the folder since the pull.'
        : 'no change to push, but the problems below must be fixed first.'
      : `${plural(plan.changes.length, 'change')}, sent in this order${blocked ? `; ${blocked}` : ''}.`;
  return {
    pushable,
    conflicts,
    problems,
    held,
    blocked,
    summary,
    sentence: pushable
      ? ''
      : `The plan holds ${held}, which a push would refuse${outcome ? `, ${outcome}` : ''}: ${fixes}, then plan again.`,
    refusal: pushable
      ? ''
      : `Nothing was sent: ${conflicts.length > 0 ? conflictsText(conflicts) : problems.join('; ')}`,
  };
}

/** The conflicts named with why each is one, and the way out: a pull keeps the folder's edits. */
function conflictsText(conflicts: readonly PlannedChange[]): string {
  const named = conflicts.map((c) => `${c.file}: ${c.reason ?? 'conflict'}`).join('; ');
  return `${plural(conflicts.length, 'resource')} changed both here and on the service since the pull: ${named}. Pull again: your changed files are kept and the plan then shows them against the service's state; review the old and new values, then push.`;
}
