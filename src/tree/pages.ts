import type { JsonObject } from '../core/json';
import { resourceTitle } from '../core/labels';
import { kindOfSegment } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { pageOf, type TreeLevel } from '../core/tree-groups';
import { treePageSize } from '../shared/settings';
import { GroupNode, KindNode, ResourceNode, type TreeNode } from './nodes';

/**
 * The resources under a node, or a page of groups of them when they are more than a page (tree-groups.ts). Groups
 * hold their members, so that expanding one sends nothing; a level is computed once per list.
 */
export class ResourcePages {
  /** Each list's page, kept while the list is (a listing until it is dropped, a group's members). */
  private readonly levels = new WeakMap<readonly JsonObject[], { pageSize: number; level: TreeLevel<JsonObject> }>();

  /** `intern` gives back the node VS Code already holds for the same key and fields. */
  constructor(private readonly intern: <T extends TreeNode>(node: T) => T) {}

  nodes(
    parent: KindNode | GroupNode | ResourceNode,
    summaries: readonly JsonObject[],
    nesting?: ReadonlyMap<number | undefined, readonly JsonObject[]>,
  ): TreeNode[] {
    const { connectionName, tenantId, segment } = parent;
    const level = this.levelOf(summaries, segment, parent instanceof KindNode);
    if (level.type === 'groups') {
      return level.groups.map((group) =>
        this.intern(
          new GroupNode(connectionName, tenantId, segment, parent.key, group.label, group.by, group.items, nesting),
        ),
      );
    }
    const groupKey = parent instanceof GroupNode ? parent.key : undefined;
    return level.items.map((summary) => {
      const below = nesting ? descendants(nesting, summary) : [];
      return this.intern(new ResourceNode(connectionName, tenantId, segment, summary, below, groupKey));
    });
  }

  /** A kind's prompts are grouped by their `group` first; groups and other lists by name ranges. */
  private levelOf(summaries: readonly JsonObject[], segment: TenantSegment, atKind: boolean): TreeLevel<JsonObject> {
    const pageSize = treePageSize();
    const cached = this.levels.get(summaries);
    if (cached?.pageSize === pageSize) return cached.level;
    const kind = kindOfSegment(segment).id;
    const groupOf = (summary: JsonObject): string | undefined =>
      typeof summary.group === 'string' ? summary.group : undefined;
    const level = pageOf(summaries, {
      pageSize,
      nameOf: (summary) => resourceTitle(kind, summary),
      ...(atKind && segment === 'ai_prompts' ? { groupOf } : {}),
    });
    this.levels.set(summaries, { pageSize, level });
    return level;
  }
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
