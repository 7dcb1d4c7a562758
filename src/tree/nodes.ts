import type { ChangeScope } from '../core/changes';
import type { JsonObject } from '../core/json';
import type { TenantSegment } from '../core/resource-kind';
import { toResourcePath, type PartLocation } from '../core/uri';

/**
 * The tree's elements. Each carries the connection it belongs to as
 * `connectionName`, which the connection commands read when invoked from a
 * node. Nodes are cached by `key`, so refreshing one reaches the instance
 * VS Code holds.
 */
export class ConnectionNode {
  readonly type = 'connection';
  constructor(readonly connectionName: string) {}
  get key(): string {
    return this.connectionName;
  }
}

export class TenantNode {
  readonly type = 'tenant';
  constructor(
    readonly connectionName: string,
    readonly tenantId: number,
    readonly summary: JsonObject,
  ) {}
  get key(): string {
    return `${this.connectionName}/${this.tenantId}`;
  }
}

export class KindNode {
  readonly type = 'kind';
  constructor(
    readonly connectionName: string,
    readonly tenantId: number,
    readonly segment: TenantSegment,
  ) {}
  get key(): string {
    return `${this.connectionName}/${this.tenantId}/${this.segment}`;
  }
}

export class ResourceNode {
  readonly type = 'resource';
  constructor(
    readonly connectionName: string,
    readonly tenantId: number,
    readonly segment: TenantSegment,
    readonly summary: JsonObject,
    /** Intents nested under this one. */
    readonly children: readonly JsonObject[] = [],
    /** The group it is listed in, when its kind was too large for one page (tree-groups.ts). */
    readonly groupKey?: string,
  ) {}
  get id(): number {
    return this.summary.id as number;
  }
  get key(): string {
    return `${this.connectionName}/${this.tenantId}/${this.segment}/${this.id}`;
  }
}

/**
 * A page of a kind too large to list at once: a group of prompts by their
 * `group` field, or a name range. It holds its members, so expanding it
 * sends no request.
 */
export class GroupNode {
  readonly type = 'group';
  constructor(
    readonly connectionName: string,
    readonly tenantId: number,
    readonly segment: TenantSegment,
    /** The kind node or group it sits under. */
    readonly parentKey: string,
    readonly label: string,
    readonly by: 'field' | 'range',
    readonly items: readonly JsonObject[],
    /** For intents: the nesting of the kind's whole listing, so a member shows its children. */
    readonly nesting?: ReadonlyMap<number | undefined, readonly JsonObject[]>,
  ) {}
  get key(): string {
    return `${this.parentKey}#${this.by}:${this.label}`;
  }
}

/** A prompt's text or JSON part, or the prompt text of one of an agent's elements. */
export class PartNode {
  readonly type = 'part';
  constructor(readonly location: PartLocation) {}
  get connectionName(): string {
    return this.location.connection;
  }
  get tenantId(): number {
    return this.location.tenantId;
  }
  get key(): string {
    return `${this.location.connection}${toResourcePath(this.location)}`;
  }
  /** The key of the resource node it sits under. */
  get parentKey(): string {
    return `${this.location.connection}/${this.location.tenantId}/${this.location.segment}/${this.location.id}`;
  }
}

/** `left-out`: children the service holds that the tree cannot show, named with the reason. */
export type NoticeKind =
  | 'no-token'
  | 'unauthorized'
  | 'unreachable'
  | 'error'
  | 'empty'
  | 'loading'
  | 'left-out'
  /** Prompts trial runs left in the tenant; its command deletes them. */
  | 'trial-copies';

/** A message in place of children that could not be shown (one per failing parent: no error storm). */
export class NoticeNode {
  readonly type = 'notice';
  constructor(
    readonly connectionName: string,
    readonly parentKey: string,
    readonly notice: NoticeKind,
    readonly message: string,
    /** The tenant it is about, for a notice whose command acts on it. */
    readonly tenantId?: number,
  ) {}
  get key(): string {
    return `${this.parentKey}#${this.notice}`;
  }
}

export type TreeNode = ConnectionNode | TenantNode | KindNode | GroupNode | ResourceNode | PartNode | NoticeNode;

/** Whether a command's argument is a node of the tree (or shaped like one, as a test passes it). */
export function isNode(arg: unknown): arg is TreeNode {
  return typeof arg === 'object' && arg !== null && 'key' in arg && 'connectionName' in arg;
}

/** What Refresh of a node names. */
export function refreshed(
  node: ConnectionNode | TenantNode | KindNode | GroupNode | ResourceNode | undefined,
): ChangeScope {
  if (!node) return { type: 'everything' };
  if (node instanceof ConnectionNode) return { type: 'connection', connection: node.connectionName };
  const at = { connection: node.connectionName, tenantId: node.tenantId };
  if (node instanceof TenantNode) return { type: 'tenant', ...at };
  // A group is a part of its kind's one listing.
  if (node instanceof KindNode || node instanceof GroupNode) return { type: 'kind', ...at, segment: node.segment };
  return { type: 'resource', ...at, segment: node.segment, id: node.id };
}

/** Whether an interned node still stands for `node`: a group by its very members, others by their fields. */
export function sameNode(existing: TreeNode, node: TreeNode): boolean {
  if (existing instanceof GroupNode || node instanceof GroupNode) {
    return (
      existing instanceof GroupNode &&
      node instanceof GroupNode &&
      existing.items === node.items &&
      existing.nesting === node.nesting
    );
  }
  return JSON.stringify(existing) === JSON.stringify(node);
}
