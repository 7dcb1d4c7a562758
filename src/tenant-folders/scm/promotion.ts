import * as vscode from 'vscode';
import { plain } from '../../core/plain-text';
import type { Connections } from '../../connections/registry';
import { kindLabel } from '../../core/references';
import { LIMITS } from '../../core/limits';
import type { Segment } from '../../core/resource-kind';
import { readManifest } from '../../core/tenant/manifest';
import type { PlannedChange } from '../../core/tenant/plan';
import { planVerdict } from '../../core/tenant/plan-verdict';
import { planPromotion } from '../../core/tenant/promote';
import type { ResourceName } from '../../core/tenant/promotion-matching';
import { push } from '../../core/tenant/push';
import type { TenantPair } from './compare-control';
import type { TenantRef } from './tenant-refs';
import { plural } from '../../core/text';

/** A change sent by a promotion, as `convai.promote` returns it; a created resource's id is the new one. */
export interface AppliedChange {
  action: PlannedChange['action'];
  segment: Segment;
  id?: number;
  name: string;
  fields: string[];
}

export interface PromotionRequest {
  source: TenantRef;
  target: TenantRef;
  /** The tenants as pulled; what changed on the target since is a conflict. */
  pair: TenantPair;
  resources?: readonly ResourceName[];
  /** Ask in a modal dialog, listing what will be sent. */
  confirm: boolean;
}

const tenantText = (ref: TenantRef): string => plain`tenant ${ref.tenantId} on ${ref.connection}`;
const VERBS = { create: 'Create', update: 'Update', delete: 'Delete', conflict: 'Conflict' } as const;
const LISTED = LIMITS.promotionListed.value;

function what(change: PlannedChange): string {
  return change.segment === 'tenants'
    ? plain`tenant "${change.name}"`
    : plain`${kindLabel(change.segment)} "${change.name}"`;
}

function line(change: PlannedChange): string {
  return `${VERBS[change.action]} ${what(change)}${change.fields.length > 0 ? plain` (${change.fields.join(', ')})` : ''}`;
}

async function confirmed(request: PromotionRequest, sends: readonly PlannedChange[]): Promise<boolean> {
  const lines = sends.slice(0, LISTED).map(line);
  if (sends.length > LISTED) lines.push(`… and ${sends.length - LISTED} more`);
  const detail = [
    ...lines,
    '',
    plain`Credentials are never copied: updated resources keep ${request.target.connection}'s own.`,
  ].join('\n');
  const message = `Promote ${plural(sends.length, 'resource')} from ${tenantText(request.source)} to ${tenantText(request.target)}?`;
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Promote')) === 'Promote';
}

/**
 * Promotes through the core: the same plan as a push from a folder (order,
 * conflicts with what changed on the target since it was pulled), then the
 * push. Resolves with the changes sent, or undefined when the user declined.
 */
export async function runPromotion(
  connections: Connections,
  request: PromotionRequest,
): Promise<AppliedChange[] | undefined> {
  const { source, target } = request;
  const connection = connections.require(target.connection);
  if (connection.readOnly)
    throw new Error(
      `Nothing was promoted: the connection "${connection.name}" is read-only (readOnly in convai.connections).`,
    );
  const client = connections.client(target.connection);
  const { plan, folder } = await planPromotion(client, request.pair.source, request.pair.target, request.resources);
  // A promotion is a push: what a push would refuse is refused, in the words of a comparison, whose fix is a refresh.
  const { conflicts, problems } = planVerdict(plan);
  if (conflicts.length > 0) {
    throw new Error(
      `Nothing was promoted: ${conflicts.map((c) => `${what(c)} (${c.reason ?? 'conflict'})`).join('; ')} on ${tenantText(target)} since it was pulled for this comparison. Refresh the comparison to see its current state, then promote again.`,
    );
  }
  if (problems.length > 0) throw new Error(`Nothing was promoted: ${problems.join(' ')}`);
  if (plan.changes.length === 0) return [];
  if (request.confirm && !(await confirmed(request, plan.changes))) return undefined;
  const result = await push(client, folder, plan);
  const [missed] = result.notTaken;
  if (missed) {
    throw new Error(
      `The promotion stopped after ${result.applied.length} of ${plan.changes.length} changes: ${tenantText(target)} did not take ${missed.field} of ${missed.file} as sent (it holds ${JSON.stringify(missed.holds)}). Check the field's value in ${tenantText(source)}, then promote again.`,
    );
  }
  const ids = new Map((await readManifest(folder))?.resources.map((entry) => [entry.file, entry.id]));
  return result.applied.map(({ file, action, segment, id = ids.get(file), name, fields }) => ({
    action,
    segment,
    ...(id === undefined ? {} : { id }),
    name,
    fields,
  }));
}
