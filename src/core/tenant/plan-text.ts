/**
 * A plan's changes as others read them: the request a push sends each as (method and path), and the contract's
 * view of a change, which convai.planPush, convai.push and `plan --json` answer with. The plan as a document is
 * plan-markdown.ts.
 */
import type { PlannedChange } from './plan';

export interface ChangeRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
}

/** The request a change is sent as; none for a conflict, which is never sent. */
export function requestOf(change: PlannedChange, tenantId: number): ChangeRequest | undefined {
  const query = change.segment === 'tenants' ? '' : `?tenant_id=${tenantId}`;
  switch (change.action) {
    case 'create':
      return { method: 'POST', path: `/api/v1/${change.segment}${query}` };
    case 'update':
      return { method: 'PUT', path: `/api/v1/${change.segment}/${String(change.id)}${query}` };
    case 'delete':
      return { method: 'DELETE', path: `/api/v1/${change.segment}/${String(change.id)}${query}` };
    case 'conflict':
      return undefined;
  }
}

/** The contract's view of a change, what convai.planPush and convai.push answer with. */
export interface PublicChange {
  action: string;
  segment: string;
  id?: number;
  name: string;
  fields: string[];
}

export function publicChange(change: PlannedChange): PublicChange {
  return {
    action: change.action,
    segment: change.segment,
    ...(change.id === undefined ? {} : { id: change.id }),
    name: change.name,
    fields: change.fields,
  };
}
