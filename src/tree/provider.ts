import * as vscode from 'vscode';
import type { JsonObject } from '../core/json';
import { ServiceError } from '../core/errors';
import { nestByParent, resourceTitle } from '../core/labels';
import { droppedListings, type ChangeScope } from '../core/changes';
import { mapWithLimit } from '../core/concurrency';
import { LIMITS } from '../core/limits';
import { tenantsListing, type ListingCache, type ListingScope, type Outcome } from '../core/listing-cache';
import type { Changes } from '../documents/changes';
import { kindById, kindOfSegment, TENANT_SEGMENTS } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { pageOf, type TreeLevel } from '../core/tree-groups';
import { agentElementNames, agentElementsLeftOut, leftOutElementsNote } from '../core/document-views';
import { PROMPT_PARTS } from '../core/uri';
import type { Connections } from '../connections/registry';
import { messageOf } from '../core/text';
import { TREE_PAGE_SIZE_SETTING, treePageSize } from '../shared/settings';
import { toTreeItem, type ConnectionState } from './items';
import { ConnectionNode, GroupNode, KindNode, NoticeNode, PartNode, ResourceNode, TenantNode, type TreeNode } from './nodes';

async function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Connections → tenants → the seven kinds (with counts) → resources → a
 * prompt's or an agent's parts, loaded lazily. Tenants and kinds read the
 * shared listing cache, so a refresh reloads only what it names, for every
 * reader at once.
 */
export class ResourceTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly states = new Map<string, ConnectionState>();
  private readonly nodes = new Map<string, TreeNode>();
  /** Each list's page, kept while the list is (a listing until it is dropped, a group's members). */
  private readonly levels = new WeakMap<readonly JsonObject[], { pageSize: number; level: TreeLevel<JsonObject> }>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly connections: Connections,
    private readonly listings: ListingCache,
    private readonly changes: Pick<Changes, 'onDidChange' | 'report'>,
  ) {
    this.disposables = [
      this.changed,
      // The listings go stale with the connections too (listings/register.ts); the states are the tree's own.
      connections.onDidChange(() => {
        this.states.clear();
        this.changed.fire(undefined);
      }),
      changes.onDidChange(({ change }) => droppedListings(change).forEach((scope) => this.listingsDropped(scope))),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(TREE_PAGE_SIZE_SETTING)) this.changed.fire(undefined);
      }),
    ];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (node instanceof KindNode) {
      // Answered at once, the count coming with a redraw once the listing has loaded: an item that waits for its
      // listing keeps its tenant's children loading, and a second load of them meanwhile (a redraw of the connection
      // when its state changes) makes VS Code register the kinds twice and leave the tenant empty.
      const key = { connection: node.connectionName, tenantId: node.tenantId, segment: node.segment };
      const outcome = this.listings.settled(key);
      if (!outcome) void this.listings.get(key).then(() => this.changed.fire(node));
      return toTreeItem(node, this.context(node), outcome);
    }
    return toTreeItem(node, this.context(node));
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.connections.list().map((c) => this.intern(new ConnectionNode(c.name)));
    if (node instanceof ConnectionNode) return this.tenantNodes(node);
    if (node instanceof TenantNode) return this.kindNodes(node);
    if (node instanceof KindNode) return this.resourceNodes(node);
    if (node instanceof GroupNode) return this.paged(node, node.items, node.nesting);
    if (node instanceof ResourceNode) return this.resourceChildren(node);
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node instanceof TenantNode) return this.nodes.get(node.connectionName);
    if (node instanceof KindNode) return this.nodes.get(`${node.connectionName}/${node.tenantId}`);
    if (node instanceof PartNode || node instanceof GroupNode) return this.nodes.get(node.parentKey);
    if (node instanceof ResourceNode) {
      if (node.groupKey !== undefined) return this.nodes.get(node.groupKey);
      const parentId = node.summary.parent_id;
      const parent = typeof parentId === 'number' ? this.nodes.get(`${node.connectionName}/${node.tenantId}/${node.segment}/${parentId}`) : undefined;
      return parent ?? this.nodes.get(`${node.connectionName}/${node.tenantId}/${node.segment}`);
    }
    return undefined;
  }

  /** Refresh: a node and what is below it, or everything, reported as a change of what it names (the change service drops and reloads it). */
  async refresh(node?: TreeNode): Promise<void> {
    if (node instanceof NoticeNode || node instanceof PartNode) {
      // A notice stands for its parent's failed load, a part for its resource: refresh the parent.
      const parent = this.nodes.get(node.parentKey);
      if (parent) return this.refresh(parent);
      this.changed.fire(this.nodes.get(node.connectionName));
      return;
    }
    if (!node || node instanceof ConnectionNode) {
      if (node) this.states.delete(node.connectionName);
      else this.states.clear();
    }
    await this.changes.report({ scopes: [refreshed(node)] });
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  private context(node: TreeNode): { readOnly: boolean; state: ConnectionState } {
    return {
      readOnly: this.connections.get(node.connectionName)?.readOnly ?? false,
      state: this.states.get(node.connectionName) ?? 'unknown',
    };
  }

  private intern<T extends TreeNode>(node: T): T {
    const existing = this.nodes.get(node.key);
    if (existing && sameNode(existing, node)) return existing as T;
    this.nodes.set(node.key, node);
    return node;
  }

  private setState(connection: string, state: ConnectionState): void {
    if (this.states.get(connection) === state) return;
    this.states.set(connection, state);
    const node = this.nodes.get(connection);
    if (node) this.changed.fire(node);
  }

  private list(connection: string, tenantId: number, segment: TenantSegment): Promise<Outcome<JsonObject[]>> {
    return this.listings.get({ connection, tenantId, segment });
  }

  private notice(parent: TreeNode, error: unknown): NoticeNode {
    const unauthorized = error instanceof ServiceError && error.status === 401;
    const unreachable = error instanceof ServiceError && (error.kind === 'network' || error.kind === 'timeout');
    if (parent instanceof ConnectionNode) this.setState(parent.connectionName, unauthorized ? 'unauthorized' : unreachable ? 'unreachable' : 'error');
    const kind = unauthorized ? 'unauthorized' : unreachable ? 'unreachable' : 'error';
    return this.intern(new NoticeNode(parent.connectionName, parent.key, kind, messageOf(error)));
  }

  private async tenantNodes(node: ConnectionNode): Promise<TreeNode[]> {
    const connection = this.connections.get(node.connectionName);
    if (!connection) return [];
    if (!(await this.connections.hasToken(connection))) {
      this.setState(node.connectionName, 'no-token');
      return [this.intern(new NoticeNode(node.connectionName, node.key, 'no-token', 'No token is set for this connection.'))];
    }
    const outcome = await this.listings.get(tenantsListing(node.connectionName));
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    this.setState(node.connectionName, 'connected');
    if (outcome.value.length === 0) return [this.intern(new NoticeNode(node.connectionName, node.key, 'empty', 'No tenants.'))];
    return outcome.value
      .filter((t) => typeof t.id === 'number')
      .map((t) => this.intern(new TenantNode(node.connectionName, t.id as number, t)));
  }

  private async kindNodes(node: TenantNode): Promise<TreeNode[]> {
    const outcomes = await mapWithLimit(TENANT_SEGMENTS, LIMITS.tenantConcurrency.value, (segment) => this.list(node.connectionName, node.tenantId, segment));
    const failures = outcomes.filter((o): o is { ok: false; error: unknown } => !o.ok);
    // The same failure for every kind (no access, service down) is one message, not seven.
    if (failures.length === outcomes.length && failures[0]) return [this.notice(node, failures[0].error)];
    return TENANT_SEGMENTS.map((segment) => this.intern(new KindNode(node.connectionName, node.tenantId, segment)));
  }

  private async resourceNodes(node: KindNode): Promise<TreeNode[]> {
    const outcome = await this.list(node.connectionName, node.tenantId, node.segment);
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    if (outcome.value.length === 0) return [];
    if (node.segment !== 'intents') return this.paged(node, outcome.value.filter((s) => typeof s.id === 'number'));
    const tree = nestByParent(outcome.value);
    return this.paged(node, tree.get(undefined) ?? [], tree);
  }

  /**
   * The resources under `parent`, or a page of groups of them when they are more than a page (tree-groups.ts).
   * Groups hold their members, so that expanding one sends nothing; a level is computed once per list.
   */
  private paged(parent: KindNode | GroupNode | ResourceNode, summaries: readonly JsonObject[], nesting?: ReadonlyMap<number | undefined, readonly JsonObject[]>): TreeNode[] {
    const { connectionName, tenantId, segment } = parent;
    const level = this.levelOf(summaries, segment, parent instanceof KindNode);
    if (level.type === 'groups') {
      return level.groups.map((group) => this.intern(new GroupNode(connectionName, tenantId, segment, parent.key, group.label, group.by, group.items, nesting)));
    }
    const groupKey = parent instanceof GroupNode ? parent.key : undefined;
    return level.items.map((summary) =>
      this.intern(new ResourceNode(connectionName, tenantId, segment, summary, nesting ? descendants(nesting, summary) : [], groupKey)),
    );
  }

  /** A kind's prompts are grouped by their `group` first; groups and other lists by name ranges. */
  private levelOf(summaries: readonly JsonObject[], segment: TenantSegment, atKind: boolean): TreeLevel<JsonObject> {
    const pageSize = treePageSize();
    const cached = this.levels.get(summaries);
    if (cached?.pageSize === pageSize) return cached.level;
    const kind = kindOfSegment(segment).id;
    const level = pageOf(summaries, {
      pageSize,
      nameOf: (summary) => resourceTitle(kind, summary),
      ...(atKind && segment === 'ai_prompts' ? { groupOf: (summary: JsonObject) => (typeof summary.group === 'string' ? summary.group : undefined) } : {}),
    });
    this.levels.set(summaries, { pageSize, level });
    return level;
  }

  /** A prompt's five parts; an agent's elements, from its detail (the list has no configuration). */
  private async resourceChildren(node: ResourceNode): Promise<TreeNode[]> {
    const at = { connection: node.connectionName, tenantId: node.tenantId, id: node.id };
    if (node.segment === 'ai_prompts') {
      return PROMPT_PARTS.map((part) => this.intern(new PartNode({ type: 'part', ...at, segment: 'ai_prompts', part })));
    }
    if (node.segment !== 'agents') {
      const nesting = nestByParent([node.summary, ...node.children]);
      return this.paged(node, nesting.get(node.id) ?? [], nesting);
    }
    const outcome = await settle(this.connections.client(node.connectionName).get(kindById('agent'), node.id, node.tenantId));
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    const elements = agentElementNames(outcome.value).map((element): TreeNode => this.intern(new PartNode({ type: 'agentPrompt', ...at, segment: 'agents', element })));
    const leftOut = agentElementsLeftOut(outcome.value);
    return leftOut.length === 0 ? elements : [...elements, this.intern(new NoticeNode(node.connectionName, node.key, 'left-out', leftOutElementsNote(leftOut)))];
  }

  /** Redraws what shows the dropped listings; they load again when VS Code asks. */
  private listingsDropped(scope: ListingScope): void {
    // A connection's tenants listing shows as the connection's children.
    const parts = scope.segment === 'tenants' ? [scope.connection] : [scope.connection, scope.tenantId, scope.segment];
    const key = parts.filter((part) => part !== undefined).join('/');
    if (key === '') this.changed.fire(undefined);
    // A node not shown yet loads afresh when it is.
    const node = this.nodes.get(key);
    if (node) this.changed.fire(node);
  }
}

/** What Refresh of a node names. */
function refreshed(node: ConnectionNode | TenantNode | KindNode | GroupNode | ResourceNode | undefined): ChangeScope {
  if (!node) return { type: 'everything' };
  if (node instanceof ConnectionNode) return { type: 'connection', connection: node.connectionName };
  const at = { connection: node.connectionName, tenantId: node.tenantId };
  if (node instanceof TenantNode) return { type: 'tenant', ...at };
  // A group is a part of its kind's one listing.
  if (node instanceof KindNode || node instanceof GroupNode) return { type: 'kind', ...at, segment: node.segment };
  return { type: 'resource', ...at, segment: node.segment, id: node.id };
}

/** Whether an interned node still stands for `node`: a group by its very members, others by their fields. */
function sameNode(existing: TreeNode, node: TreeNode): boolean {
  if (existing instanceof GroupNode || node instanceof GroupNode) {
    return existing instanceof GroupNode && node instanceof GroupNode && existing.items === node.items && existing.nesting === node.nesting;
  }
  return JSON.stringify(existing) === JSON.stringify(node);
}

/** Everything below an intent, so its node can show its children without another request. */
function descendants(tree: ReadonlyMap<number | undefined, readonly JsonObject[]>, summary: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const visit = (id: unknown): void => {
    for (const child of tree.get(typeof id === 'number' ? id : undefined) ?? []) {
      out.push(child);
      visit(child.id);
    }
  };
  if (typeof summary.id === 'number') visit(summary.id);
  return out;
}
