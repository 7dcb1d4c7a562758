/**
 * What every shell says of a trial (contract: "Trials"): the report's `trial` object, and the sentence for copies a run
 * could not delete, and the words both use. Apart from the engine, so a shell that only reports loads none of it.
 */
/** A copy as reports name it: the live prompt's id (absent for a created one), the copy's id, the prompt's name. */
export interface TrialCopy {
  id?: number;
  copy: number;
  name: string;
  /** A created prompt's file in the folder, when a folder proposed it. */
  file?: string;
}

/** A copy a run could not delete, and why. */
export type LeftCopy = TrialCopy & { reason: string };

export interface TrialOutcome {
  tag: string;
  /** Where the copies were made. */
  tenantId: number;
  copies: TrialCopy[];
  /** Every copy is gone from the service. */
  deleted: boolean;
  /** The copies still there, when not. */
  left?: LeftCopy[];
}

/** A trial as reports give it (contract: `trial: { tag, folder?, copies: [{ id, copy, name }], deleted }`). */
export function publicTrial(trial: TrialOutcome, folder?: string): object {
  const copies = trial.copies.map(({ id, copy, name }) => ({ ...(id === undefined ? {} : { id }), copy, name }));
  return { tag: trial.tag, ...(folder === undefined ? {} : { folder }), copies, deleted: trial.deleted };
}

/** The sentence every shell gives for copies a run left: each named, and how to delete them. */
export function leftText(left: readonly LeftCopy[], tenantId: number): string {
  const named = left.map((c) => `"${c.name}" (copy ${c.copy}): ${c.reason}`).join('; ');
  const copies = left.length === 1 ? 'A trial copy' : `${left.length} trial copies`;
  return `${copies} could not be deleted: ${named}. ${cleanAdvice(tenantId)}`;
}

/** How a user removes what a trial left: the one sentence every shell gives. */
export function cleanAdvice(tenantId: number): string {
  return `Delete what a trial left with \`convai trials clean --tenant ${tenantId}\`, or Clean Up Trial Copies in VS Code.`;
}
