import * as vscode from 'vscode';
import type { JsonObject } from '../core/json';
import { ServiceError } from '../core/errors';
import { nestByParent } from '../core/labels';
import { droppedListings } from '../core/changes';
import { mapWithLimit } from '../core/concurrency';
import { LIMITS } from '../core/limits';
import type { TrialCopyCounts } from '../listings/register';
import { tenantsListing, type ListingCache, type ListingScope, type Outcome } from '../core/listing-cache';
import type { Changes } from '../documents/changes';
import { kindById, TENANT_SEGMENTS } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { agentElementNames, agentElementsLeftOut, leftOutElementsNote } from '../core/document-views';
import { PROMPT_PARTS } from '../core/uri';
import type { Connections } from '../connections/registry';
import { messageOf } from '../core/text';
import { TREE_PAGE_SIZE_SETTING } from '../shared/settings';
import { sameLook, toTreeItem, type ConnectionState } from './items';
import {
  ConnectionNode,
  GroupNode,
  KindNode,
  NoticeNode,
  PartNode,
  ResourceNode,
  TenantNode,
  refreshed,
  sameNode,
  type TreeNode,
} from './nodes';
import { ResourcePages } from './pages';
import { DisposableStore } from '../core/disposable-store';
import { Redraws } from './redraws';

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
  private readonly changed = new vscode.EventEmitter<TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Every redraw goes through it: none may reach VS Code while it loads children (redraws.ts). */
  private readonly redraws = new Redraws<TreeNode>((nodes) => this.changed.fire(nodes));
  private readonly states = new Map<string, ConnectionState>();
  private readonly nodes = new Map<string, TreeNode>();
  private readonly pages = new ResourcePages((node) => this.intern(node));
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly connections: Connections,
    private readonly listings: ListingCache,
    private readonly changes: Pick<Changes, 'onDidChange' | 'report'>,
    private readonly trialCopies: Pick<TrialCopyCounts, 'of'>,
  ) {
    this.disposables.push(
      this.changed,
      this.redraws,
      // The listings go stale with the connections too (listings/register.ts); the states are the tree's own.
      connections.onDidChange(() => {
        this.states.clear();
        this.redraws.redraw(undefined);
      }),
      changes.onDidChange(({ change }) => droppedListings(change).forEach((scope) => this.listingsDropped(scope))),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(TREE_PAGE_SIZE_SETTING)) this.redraws.redraw(undefined);
      }),
    );
  }

  getTreeItem(node: TreeNode): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (node instanceof KindNode) {
      // Answered at once, the count coming with a redraw once the listing has loaded: an item that waits for its
      // listing keeps its tenant's children loading, and a second load of them meanwhile (a redraw of the connection
      // when its state changes) makes VS Code register the kinds twice and leave the tenant empty.
      const key = {
        connection: node.connectionName,
        tenantId: node.tenantId,
        segment: node.segment,
      };
      const outcome = this.listings.settled(key);
      if (!outcome) void this.listings.get(key).then(() => this.redraws.redraw(node));
      return toTreeItem(node, this.context(node), outcome);
    }
    return toTreeItem(node, this.context(node));
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.redraws.loading(() => this.childrenOf(node));
  }

  private async childrenOf(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.connections.list().map((c) => this.intern(new ConnectionNode(c.name)));
    if (node instanceof ConnectionNode) return this.tenantNodes(node);
    if (node instanceof TenantNode) return this.kindNodes(node);
    if (node instanceof KindNode) return this.resourceNodes(node);
    if (node instanceof GroupNode) return this.pages.nodes(node, node.items, node.nesting);
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
      const parent =
        typeof parentId === 'number'
          ? this.nodes.get(`${node.connectionName}/${node.tenantId}/${node.segment}/${parentId}`)
          : undefined;
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
      this.redraws.redraw(this.nodes.get(node.connectionName));
      return;
    }
    if (!node || node instanceof ConnectionNode) {
      if (node) this.states.delete(node.connectionName);
      else this.states.clear();
    }
    await this.changes.report({ scopes: [refreshed(node)] });
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private context(node: TreeNode): {
    readOnly: boolean;
    state: ConnectionState;
  } {
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
    const before = this.states.get(connection) ?? 'unknown';
    this.states.set(connection, state);
    // Learnt as the connection's tenants load: a redraw of its row while VS Code takes them in can lose them, so only
    // a row that looks different is redrawn (a problem), never for the tenants arriving (unknown to connected).
    const node = this.nodes.get(connection);
    if (node && !sameLook(before, state)) this.redraws.redraw(node);
  }

  private list(connection: string, tenantId: number, segment: TenantSegment): Promise<Outcome<JsonObject[]>> {
    return this.listings.get({ connection, tenantId, segment });
  }

  private notice(parent: TreeNode, error: unknown): NoticeNode {
    const unauthorized = error instanceof ServiceError && error.status === 401;
    const unreachable = error instanceof ServiceError && (error.kind === 'network' || error.kind === 'timeout');
    if (parent instanceof ConnectionNode)
      this.setState(parent.connectionName, unauthorized ? 'unauthorized' : unreachable ? 'unreachable' : 'error');
    const kind = unauthorized ? 'unauthorized' : unreachable ? 'unreachable' : 'error';
    return this.intern(new NoticeNode(parent.connectionName, parent.key, kind, messageOf(error)));
  }

  private async tenantNodes(node: ConnectionNode): Promise<TreeNode[]> {
    const connection = this.connections.get(node.connectionName);
    if (!connection) return [];
    if (!(await this.connections.hasToken(connection))) {
      this.setState(node.connectionName, 'no-token');
      return [
        this.intern(new NoticeNode(node.connectionName, node.key, 'no-token', 'No token is set for this connection.')),
      ];
    }
    const outcome = await this.listings.get(tenantsListing(node.connectionName));
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    this.setState(node.connectionName, 'connected');
    if (outcome.value.length === 0)
      return [this.intern(new NoticeNode(node.connectionName, node.key, 'empty', 'No tenants.'))];
    return outcome.value
      .filter((t) => typeof t.id === 'number')
      .map((t) => this.intern(new TenantNode(node.connectionName, t.id as number, t)));
  }

  private async kindNodes(node: TenantNode): Promise<TreeNode[]> {
    const outcomes = await mapWithLimit(TENANT_SEGMENTS, LIMITS.tenantConcurrency.value, (segment) =>
      this.list(node.connectionName, node.tenantId, segment),
    );
    const failures = outcomes.filter((o): o is { ok: false; error: unknown } => !o.ok);
    // The same failure for every kind (no access, service down) is one message, not seven.
    if (failures.length === outcomes.length && failures[0]) return [this.notice(node, failures[0].error)];
    const kinds = TENANT_SEGMENTS.map((segment) =>
      this.intern(new KindNode(node.connectionName, node.tenantId, segment)),
    );
    const copies = this.trialCopies.of(node.connectionName, node.tenantId);
    if (copies === 0) return kinds;
    const message = `Trial copies left: ${copies}`;
    return [
      ...kinds,
      this.intern(new NoticeNode(node.connectionName, node.key, 'trial-copies', message, node.tenantId)),
    ];
  }

  private async resourceNodes(node: KindNode): Promise<TreeNode[]> {
    const outcome = await this.list(node.connectionName, node.tenantId, node.segment);
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    if (outcome.value.length === 0) return [];
    if (node.segment !== 'intents')
      return this.pages.nodes(
        node,
        outcome.value.filter((s) => typeof s.id === 'number'),
      );
    const tree = nestByParent(outcome.value);
    return this.pages.nodes(node, tree.get(undefined) ?? [], tree);
  }

  /** A prompt's five parts; an agent's elements, from its detail (the list has no configuration). */
  private async resourceChildren(node: ResourceNode): Promise<TreeNode[]> {
    const at = {
      connection: node.connectionName,
      tenantId: node.tenantId,
      id: node.id,
    };
    if (node.segment === 'ai_prompts') {
      return PROMPT_PARTS.map((part) =>
        this.intern(new PartNode({ type: 'part', ...at, segment: 'ai_prompts', part })),
      );
    }
    if (node.segment !== 'agents') {
      const nesting = nestByParent([node.summary, ...node.children]);
      return this.pages.nodes(node, nesting.get(node.id) ?? [], nesting);
    }
    const outcome = await settle(
      this.connections.client(node.connectionName).get(kindById('agent'), node.id, node.tenantId),
    );
    if (!outcome.ok) return [this.notice(node, outcome.error)];
    const elements = agentElementNames(outcome.value).map(
      (element): TreeNode =>
        this.intern(
          new PartNode({
            type: 'agentPrompt',
            ...at,
            segment: 'agents',
            element,
          }),
        ),
    );
    const leftOut = agentElementsLeftOut(outcome.value);
    return leftOut.length === 0
      ? elements
      : [
          ...elements,
          this.intern(new NoticeNode(node.connectionName, node.key, 'left-out', leftOutElementsNote(leftOut))),
        ];
  }

  /** Redraws what shows the dropped listings; they load again when VS Code asks. */
  private listingsDropped(scope: ListingScope): void {
    // A connection's tenants listing shows as the connection's children.
    const parts = scope.segment === 'tenants' ? [scope.connection] : [scope.connection, scope.tenantId, scope.segment];
    const key = parts.filter((part) => part !== undefined).join('/');
    if (key === '') this.redraws.redraw(undefined);
    // A node not shown yet loads afresh when it is.
    const node = this.nodes.get(key);
    if (node) this.redraws.redraw(node);
  }
}
