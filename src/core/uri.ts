/**
 * The `convai:` URI layout of the extension contract. Every URI is made by
 * `toResourcePath` and read by `parseResourcePath`, here and nowhere else.
 * The core works on authority and path strings; the glue wraps them in `vscode.Uri`.
 */
import { kindBySegment, TENANT_SEGMENTS, type TenantSegment } from './resources';

export const SCHEME = 'convai';

export type ResourceLocation =
  | { type: 'root'; connection: string }
  | { type: 'tenants'; connection: string }
  | { type: 'tenant'; connection: string; tenantId: number }
  | { type: 'tenantFolder'; connection: string; tenantId: number }
  | { type: 'kindFolder'; connection: string; tenantId: number; segment: TenantSegment }
  | { type: 'resource'; connection: string; tenantId: number; segment: TenantSegment; id: number };

export type FileLocation = Extract<ResourceLocation, { type: 'tenant' | 'resource' }>;

export const CONNECTION_NAME = /^[a-z0-9-]{1,40}$/;

export function isFile(location: ResourceLocation): location is FileLocation {
  return location.type === 'tenant' || location.type === 'resource';
}

/** The path part of a location's URI (the authority is the connection name). */
export function toResourcePath(location: ResourceLocation): string {
  switch (location.type) {
    case 'root':
      return '/';
    case 'tenants':
      return '/tenants/';
    case 'tenant':
      return `/tenants/${location.tenantId}.json`;
    case 'tenantFolder':
      return `/tenants/${location.tenantId}/`;
    case 'kindFolder':
      return `/tenants/${location.tenantId}/${location.segment}/`;
    case 'resource':
      return `/tenants/${location.tenantId}/${location.segment}/${location.id}.json`;
  }
}

export function toResourceUriString(location: ResourceLocation): string {
  return `${SCHEME}://${location.connection}${toResourcePath(location)}`;
}

const ID = /^(0|[1-9]\d{0,15})$/;

function id(text: string | undefined): number | undefined {
  return text !== undefined && ID.test(text) ? Number(text) : undefined;
}

function jsonId(name: string | undefined): number | undefined {
  return name?.endsWith('.json') ? id(name.slice(0, -'.json'.length)) : undefined;
}

function isTenantSegment(segment: string | undefined): segment is TenantSegment {
  return segment !== undefined && (TENANT_SEGMENTS as readonly string[]).includes(segment);
}

/**
 * Reads a `convai:` URI's authority and path; undefined for anything outside
 * the layout. A trailing slash is optional on folders, since VS Code drops it.
 */
export function parseResourcePath(connection: string, path: string): ResourceLocation | undefined {
  if (!CONNECTION_NAME.test(connection)) return undefined;
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  const parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.some((part) => part === '')) return undefined;
  const [top, tenantPart, segment, resourcePart, ...rest] = parts;
  if (rest.length > 0) return undefined;
  if (top === undefined) return { type: 'root', connection };
  if (top !== 'tenants') return undefined;
  if (tenantPart === undefined) return { type: 'tenants', connection };
  if (segment === undefined) {
    const tenantFile = jsonId(tenantPart);
    if (tenantFile !== undefined) return { type: 'tenant', connection, tenantId: tenantFile };
    const tenantId = id(tenantPart);
    return tenantId === undefined ? undefined : { type: 'tenantFolder', connection, tenantId };
  }
  const tenantId = id(tenantPart);
  if (tenantId === undefined || !isTenantSegment(segment)) return undefined;
  if (resourcePart === undefined) return { type: 'kindFolder', connection, tenantId, segment };
  const resourceId = jsonId(resourcePart);
  return resourceId === undefined ? undefined : { type: 'resource', connection, tenantId, segment, id: resourceId };
}

/** A readable name for messages: "AI Prompt 3 of tenant 1 on local". */
export function describeLocation(location: ResourceLocation): string {
  switch (location.type) {
    case 'resource':
      return `${kindBySegment(location.segment)?.label ?? location.segment} ${location.id} of tenant ${location.tenantId} on ${location.connection}`;
    case 'tenant':
      return `tenant ${location.tenantId} on ${location.connection}`;
    case 'kindFolder':
      return `${kindBySegment(location.segment)?.pluralLabel ?? location.segment} of tenant ${location.tenantId} on ${location.connection}`;
    case 'tenantFolder':
      return `tenant ${location.tenantId} on ${location.connection}`;
    case 'tenants':
      return `tenants on ${location.connection}`;
    case 'root':
      return `connection ${location.connection}`;
  }
}
