import { isResourceId } from '../../core/references';
import { isTenantSegment, TENANT_SEGMENTS } from '../../core/resources';
import type { ResourceName } from '../../core/tenant/promotion-matching';
import { isJsonObject } from '../../core/json';

/** A tenant on a connection: one side of a comparison. */
export interface TenantRef {
  connection: string;
  tenantId: number;
}

export function sameTenant(a: TenantRef, b: TenantRef): boolean {
  return a.connection === b.connection && a.tenantId === b.tenantId;
}

/** A programmatic caller's `{ connection, tenantId }`. */
export function tenantRefArg(value: unknown, what: string): TenantRef {
  if (!isJsonObject(value) || typeof value.connection !== 'string' || !isResourceId(value.tenantId)) {
    throw new Error(`${what} must be { connection, tenantId }: a connection's name and a tenant's id.`);
  }
  return { connection: value.connection, tenantId: value.tenantId };
}

/** A programmatic caller's `resources`: absent for all of them, else a list of `{ segment, name }`. */
export function resourceNamesArg(value: unknown): ResourceName[] | undefined {
  if (value === undefined) return undefined;
  const valid = (item: unknown): item is ResourceName =>
    isJsonObject(item) &&
    typeof item.name === 'string' &&
    typeof item.segment === 'string' &&
    isTenantSegment(item.segment);
  if (!Array.isArray(value) || !value.every(valid)) {
    throw new Error(
      `resources must be a list of { segment, name }, segment one of ${TENANT_SEGMENTS.join(', ')}; leave it out to promote every resource.`,
    );
  }
  return value.map(({ segment, name }) => ({ segment, name }));
}
