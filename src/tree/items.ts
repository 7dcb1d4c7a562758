import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import type { JsonObject } from '../core/json';
import { packageName, resourceLabel } from '../core/labels';
import { kindOfSegment } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { countText } from '../core/tree-groups';
import { partName, toResourceUriString } from '../core/uri';
import { ConnectionRef } from '../ui/notify';
import { titledOpenArguments } from '../documents/open-titled';
import {
  ConnectionNode,
  GroupNode,
  KindNode,
  NoticeNode,
  PartNode,
  ResourceNode,
  TenantNode,
  type TreeNode,
} from './nodes';

export type ConnectionState = 'unknown' | 'connected' | 'no-token' | 'unauthorized' | 'unreachable' | 'error';

interface ItemContext {
  readOnly: boolean;
  state: ConnectionState;
}

type ListOutcome = { ok: true; value: JsonObject[] } | { ok: false; error: unknown };

const KIND_ICONS: Readonly<Record<TenantSegment, string>> = {
  integrations: 'plug',
  ai_prompts: 'comment-discussion',
  ai_functions: 'symbol-function',
  ai_actions: 'zap',
  agents: 'hubot',
  intents: 'lightbulb',
  datasources: 'database',
};

const STATE_TEXT: Readonly<Record<ConnectionState, string>> = {
  unknown: '',
  connected: '',
  'no-token': 'not connected: no token',
  unauthorized: 'unauthorized',
  unreachable: 'unreachable',
  error: 'error',
};

/** Whether a connection's row looks the same in both states (a state shows only as a problem's text and icon). */
export function sameLook(a: ConnectionState, b: ConnectionState): boolean {
  return STATE_TEXT[a] === STATE_TEXT[b];
}

/** `resource:ai_prompts` or `resource:ai_prompts:readonly`: menus match these by regular expression. */
function contextValue(base: string, readOnly: boolean): string {
  return readOnly ? `${base}:readonly` : base;
}

function connectionItem(node: ConnectionNode, context: ItemContext): vscode.TreeItem {
  const item = new vscode.TreeItem(plainText(node.connectionName), vscode.TreeItemCollapsibleState.Collapsed);
  const problem = context.state !== 'unknown' && context.state !== 'connected';
  item.description = [context.readOnly ? 'read-only' : '', STATE_TEXT[context.state]].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon(problem ? 'warning' : context.readOnly ? 'lock' : 'plug');
  item.tooltip =
    plain`Connection ${node.connectionName}` + `${context.readOnly ? ' (read-only: writes are refused)' : ''}`;
  item.contextValue = contextValue('connection', context.readOnly);
  return item;
}

function tenantItem(node: TenantNode, context: ItemContext): vscode.TreeItem {
  // The service's text shown as text: a right-to-left override would reverse what follows it.
  const name = plainText(typeof node.summary.name === 'string' ? node.summary.name : `Tenant ${node.tenantId}`);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Collapsed);
  const pkg =
    node.summary.booked_package === undefined ? undefined : `${packageName(node.summary.booked_package)} package`;
  item.description = [`#${node.tenantId}`, pkg].filter(Boolean).join(' · ');
  item.tooltip = `${name}\nid: ${node.tenantId}${pkg ? `\n${pkg}` : ''}`;
  item.iconPath = new vscode.ThemeIcon('organization');
  item.contextValue = contextValue('tenant', context.readOnly);
  return item;
}

function kindItem(node: KindNode, context: ItemContext, outcome?: ListOutcome): vscode.TreeItem {
  const kind = kindOfSegment(node.segment);
  const empty = outcome?.ok === true && outcome.value.length === 0;
  const item = new vscode.TreeItem(
    kind.pluralLabel,
    empty ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.description = outcome === undefined ? '' : outcome.ok ? String(outcome.value.length) : 'failed to load';
  item.iconPath = new vscode.ThemeIcon(KIND_ICONS[node.segment]);
  item.contextValue = contextValue(`kind:${node.segment}`, context.readOnly);
  return item;
}

function groupItem(node: GroupNode, context: ItemContext): vscode.TreeItem {
  const label = plainText(node.label);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  const plural = kindOfSegment(node.segment).pluralLabel;
  item.description = countText(node.items.length);
  item.tooltip =
    node.by === 'field'
      ? `${countText(node.items.length)} ${plural} of the group ${label}`
      : `${countText(node.items.length)} ${plural} whose names run ${label}`;
  item.iconPath = new vscode.ThemeIcon(node.by === 'field' ? 'folder' : 'list-flat');
  item.contextValue = contextValue(`group:${node.segment}`, context.readOnly);
  return item;
}

function resourceItem(node: ResourceNode, context: ItemContext): vscode.TreeItem {
  const kind = kindOfSegment(node.segment);
  const { label, description, details } = resourceLabel(kind.id, node.summary);
  // A prompt's and an agent's parts, an intent's children.
  const hasChildren =
    node.segment === 'ai_prompts' || node.segment === 'agents' || node.children.some((c) => c.parent_id === node.id);
  const collapsible = hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(plainText(label), collapsible);
  const uri = vscode.Uri.parse(
    toResourceUriString({
      type: 'resource',
      connection: node.connectionName,
      tenantId: node.tenantId,
      segment: node.segment,
      id: node.id,
    }),
  );
  // The service's text shown as text: a right-to-left override in a name would reverse what follows it.
  item.description = plainText(description);
  // Plain text too: values come from the service and must not be read as Markdown.
  item.tooltip = `${kind.label} ${node.id}\n${details.map(plainText).join('\n')}`;
  item.iconPath = new vscode.ThemeIcon(KIND_ICONS[node.segment]);
  item.resourceUri = uri;
  item.command = { command: 'vscode.open', title: 'Open', arguments: titledOpenArguments(uri, kind.label, label) };
  item.contextValue = contextValue(`resource:${node.segment}`, context.readOnly);
  return item;
}

/** What each part holds, for its description and tooltip. */
const PART_DESCRIPTIONS: Readonly<Record<string, string>> = {
  system: 'system instructions · Markdown',
  user_prompt: 'prompt text · Markdown',
  assistant: 'assistant response template · Markdown',
  function_defs: 'function definitions · JSON',
  settings: 'settings · JSON',
};

function partItem(node: PartNode, context: ItemContext): vscode.TreeItem {
  const { location } = node;
  const label = location.type === 'part' ? location.part : location.element;
  const item = new vscode.TreeItem(plainText(label), vscode.TreeItemCollapsibleState.None);
  const uri = vscode.Uri.parse(toResourceUriString(location));
  item.description = location.type === 'part' ? PART_DESCRIPTIONS[location.part] : 'prompt text · Markdown';
  item.tooltip = `The ${partName(location)} as a document of its own: saving it sends this field alone.`;
  const json = location.type === 'part' && (location.part === 'function_defs' || location.part === 'settings');
  item.iconPath = new vscode.ThemeIcon(json ? 'json' : 'markdown');
  item.resourceUri = uri;
  item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
  item.contextValue = contextValue(`part:${location.segment}`, context.readOnly);
  return item;
}

function noticeItem(node: NoticeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(plainText(node.message), vscode.TreeItemCollapsibleState.None);
  item.tooltip = plainText(node.message);
  item.contextValue = `notice:${node.notice}`;
  switch (node.notice) {
    case 'no-token':
    case 'unauthorized':
      item.iconPath = new vscode.ThemeIcon('key');
      item.description = 'Set Token…';
      item.command = {
        command: 'convai.setToken',
        title: 'Set Token',
        arguments: [new ConnectionRef(node.connectionName)],
      };
      break;
    case 'unreachable':
    case 'error':
      item.iconPath = new vscode.ThemeIcon('error');
      item.description = 'Retry';
      item.command = { command: 'convai.refresh', title: 'Retry', arguments: [node] };
      break;
    case 'trial-copies':
      item.iconPath = new vscode.ThemeIcon('trash');
      item.description = 'Clean Up…';
      item.command = { command: 'convai.cleanTrials', title: 'Clean Up Trial Copies', arguments: [node] };
      break;
    default:
      item.iconPath = new vscode.ThemeIcon('info');
  }
  return item;
}

export function toTreeItem(node: TreeNode, context: ItemContext, outcome?: ListOutcome): vscode.TreeItem {
  const item =
    node instanceof ConnectionNode
      ? connectionItem(node, context)
      : node instanceof TenantNode
        ? tenantItem(node, context)
        : node instanceof KindNode
          ? kindItem(node, context, outcome)
          : node instanceof GroupNode
            ? groupItem(node, context)
            : node instanceof ResourceNode
              ? resourceItem(node, context)
              : node instanceof PartNode
                ? partItem(node, context)
                : noticeItem(node);
  item.id = node.key;
  return item;
}
