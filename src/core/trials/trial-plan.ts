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
  /** The live prompt's name, or the created one's: what reports call it. */
  name: string;
  /** Editable fields as the service takes them (a prompt's settings as text); a field left out stays as it is live. */
  fields: JsonObject;
}

export const LINK_FIELDS = ['next_prompt_id', 'exit_prompt_id'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** A hand-over from one copy to another copied prompt, by the live id the proposal names. */
export interface CopyLink {
  field: LinkField;
  to: number;
  /** The copy it names is created before this one, so the create names it; otherwise (a cycle) an update does. */
  atCreate: boolean;
}

export interface PlannedCopy {
  id?: number;
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

/** Copies before the copies that hand over to them (depth first), so only a cycle's last link waits for an update. */
function ordered(copies: readonly Omit<PlannedCopy, 'links'>[]): PlannedCopy[] {
  const byId = new Map(copies.flatMap((c) => (c.id === undefined ? [] : [[c.id, c] as const])));
  const placed = new Set<Omit<PlannedCopy, 'links'>>();
  const visiting = new Set<Omit<PlannedCopy, 'links'>>();
  const out: PlannedCopy[] = [];
  const visit = (copy: Omit<PlannedCopy, 'links'>): void => {
    if (placed.has(copy) || visiting.has(copy)) return;
    visiting.add(copy);
    const targets = LINK_FIELDS.flatMap((field) => {
      const to = copy.fields[field];
      const target = typeof to === 'number' ? byId.get(to) : undefined;
      return target ? [{ field, to: to as number, target }] : [];
    });
    for (const { target } of targets) visit(target);
    const links = targets.map(({ field, to, target }) => ({ field, to, atCreate: placed.has(target) }));
    visiting.delete(copy);
    placed.add(copy);
    out.push({ ...copy, links });
  };
  for (const copy of copies) visit(copy);
  return out;
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
          name: p.name,
          fields: { ...(held ? updateBody(PROMPT, held) : {}), ...p.fields },
        };
      }),
  );
  const updates = copies.reduce((sum, c) => sum + (c.links.some((l) => !l.atCreate) ? 1 : 0), 0);
  return { copies, requests: 2 * copies.length + updates };
}
