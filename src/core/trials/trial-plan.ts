/**
 * Which prompts a trial copies, and how (contract: "Trials"): a proposed version gets a copy only when it differs from
 * what the service holds, or when the change creates the prompt; a copy's hand-over to another copied prompt names
 * that prompt's copy. Pure, so the CLI, the Testing view and the variant lab plan alike.
 */
import { canonical, type JsonObject } from '../json';
import { kindById } from '../resources';
import { updateBody } from '../save-plan';

/** A version of a prompt the service does not hold yet. */
export interface Proposal {
  /** The live prompt; absent for a prompt the change creates. */
  id?: number;
  /** The folder's file of a prompt the change creates, which another proposal's link may name instead of an id. */
  file?: string;
  /** The live prompt's name, or the created one's: what reports call it. */
  name: string;
  /** Editable fields as the service takes them (a prompt's settings as text); a field left out stays as it is live. */
  fields: JsonObject;
}

export const LINK_FIELDS = ['next_prompt_id', 'exit_prompt_id'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** A hand-over from one copy to another copied prompt (by a live id, or a created prompt's file). */
export interface CopyLink {
  field: LinkField;
  /** The copy it hands over to, by its place in the plan's copies. */
  target: number;
  /** The copy it names is created before this one, so the create names it; otherwise (a cycle) an update does. */
  atCreate: boolean;
}

export interface PlannedCopy {
  id?: number;
  file?: string;
  name: string;
  /** The fields the copy is created with, before its name is marked and its links are pointed at copies. */
  fields: JsonObject;
  links: CopyLink[];
}

export interface TrialPlan {
  /** In the order they are created: a copy after the copies it hands over to, where no cycle prevents it. */
  copies: PlannedCopy[];
  /** The creates, link updates and deletes the copies cost. */
  requests: number;
}

const PROMPT = kindById('prompt');

function changes(proposal: Proposal, live: JsonObject | undefined): boolean {
  if (proposal.id === undefined || live === undefined) return true;
  const held = updateBody(PROMPT, live);
  return Object.entries(proposal.fields).some(([field, value]) => canonical(value) !== canonical(held[field]));
}

type Unlinked = Omit<PlannedCopy, 'links'>;

/** Copies after the copies they hand over to (depth first), so only a cycle's last link waits for an update. */
function ordered(copies: readonly Unlinked[]): PlannedCopy[] {
  const byId = new Map(copies.flatMap((c) => (c.id === undefined ? [] : [[c.id, c] as const])));
  const byFile = new Map(copies.flatMap((c) => (c.file === undefined ? [] : [[c.file, c] as const])));
  const targetsOf = (copy: Unlinked): Array<{ field: LinkField; target: Unlinked }> =>
    LINK_FIELDS.flatMap((field) => {
      const to = copy.fields[field];
      const target = typeof to === 'number' ? byId.get(to) : typeof to === 'string' ? byFile.get(to) : undefined;
      return target ? [{ field, target }] : [];
    });
  const order: Unlinked[] = [];
  const seen = new Set<Unlinked>();
  const visit = (copy: Unlinked): void => {
    if (seen.has(copy)) return;
    seen.add(copy);
    for (const { target } of targetsOf(copy)) visit(target);
    order.push(copy);
  };
  for (const copy of copies) visit(copy);
  const position = new Map(order.map((copy, index) => [copy, index]));
  return order.map((copy, index) => ({
    ...copy,
    links: targetsOf(copy).map(({ field, target }) => {
      const at = position.get(target) as number;
      // Created before this one, so the create names it; itself or later (a cycle), so an update does.
      return { field, target: at, atCreate: at < index };
    }),
  }));
}

/**
 * The copies a trial of `proposals` needs; `live` holds the service's detail of each proposed live prompt. The fields
 * of a copy are the live prompt's with the proposal's over them, so a proposal of a few fields tests just those.
 */
export function planTrial(proposals: readonly Proposal[], live: ReadonlyMap<number, JsonObject>): TrialPlan {
  const copies = ordered(
    proposals
      .filter((p) => changes(p, p.id === undefined ? undefined : live.get(p.id)))
      .map((p) => {
        const held = p.id === undefined ? undefined : live.get(p.id);
        return {
          ...(p.id === undefined ? {} : { id: p.id }),
          ...(p.file === undefined ? {} : { file: p.file }),
          name: p.name,
          fields: { ...(held ? updateBody(PROMPT, held) : {}), ...p.fields },
        };
      }),
  );
  const updates = copies.reduce((sum, c) => sum + (c.links.some((l) => !l.atCreate) ? 1 : 0), 0);
  return { copies, requests: 2 * copies.length + updates };
}
