/**
 * Suites run as a trial (contract: "Trials"): checked against what the trial proposes before any copy is made (a
 * suite may name a prompt the change creates, and may not name one it deletes), then pointed at the copies once
 * they exist.
 */
import { promptsNamed, type CreatedPrompt, type ResolvedTarget } from '../prompt-tests/target';
import { refersTo, type Suite } from '../prompt-tests/suite';
import type { Proposal } from './trial-plan';
import type { TrialRoute } from './trial-run';

/** A created prompt before its copy exists: a stand-in id below zero, which no prompt of a service has. */
export interface StandIn extends CreatedPrompt {
  file: string;
}

export function standIns(proposals: readonly Proposal[]): StandIn[] {
  return proposals.flatMap((p, index) =>
    p.id === undefined && p.file !== undefined ? [{ id: -(index + 1), name: p.name, file: p.file }] : [],
  );
}

/** Every reference a suite makes to a prompt, its own included. */
function references(suite: Suite): Array<{ ref: string | number; what: string }> {
  return [
    { ref: suite.resource.ref, what: 'the suite\'s "prompt"' },
    ...suite.cases.flatMap((c) =>
      promptsNamed(c).map(({ ref, what }) => ({ ref, what: `case ${JSON.stringify(c.name)}, ${what}` })),
    ),
  ];
}

/** Where a suite names a prompt the change deletes: the trial would test what the change removes. */
export function namesDeleted(suite: Suite, deleted: ReadonlyArray<{ id: number; name: string }>): string[] {
  if (suite.resource.segment !== 'ai_prompts') return [];
  return references(suite).flatMap(({ ref, what }) => {
    const prompt = deleted.find((d) => refersTo(ref, d));
    return prompt ? [`${what} names ${JSON.stringify(prompt.name)} (${prompt.id}), which the folder deletes`] : [];
  });
}

/** Whether a suite names a prompt only the trial holds, so it has no live version to compare with. */
export function namesCreated(suite: Suite, created: readonly StandIn[]): boolean {
  return (
    suite.resource.segment === 'ai_prompts' &&
    references(suite).some(({ ref }) => created.some((c) => refersTo(ref, c)))
  );
}

/** A target prepared with stand-ins, with each stand-in replaced by its copy's id. */
export function withCopies(target: ResolvedTarget, created: readonly StandIn[], route: TrialRoute): ResolvedTarget {
  const copyOf = (id: number): number => {
    const standIn = created.find((c) => c.id === id);
    return standIn ? (route.copies.find((c) => c.file === standIn.file)?.copy ?? id) : id;
  };
  return {
    ...target,
    id: copyOf(target.id),
    names: new Map([...target.names].map(([id, name]) => [copyOf(id), name])),
  };
}
