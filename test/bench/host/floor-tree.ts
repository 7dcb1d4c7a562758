// The floor of expanding a tree node of many resources: a minimal TreeDataProvider shaped like the ConvAI tree's
// tenant → AI Prompts → prompts, whose rows show what the ConvAI rows show (label, description, tooltip, icon,
// resource URI, open command, context value, collapsible for parts). Like the ConvAI tree, it reads the list when
// the tenant expands, so that its AI Prompts row can show the count, and builds the rows when AI Prompts expands.
import * as vscode from 'vscode';
import type { FloorClient, PromptSummary } from './floor-client';
import { floorScheme } from '../protocol';

type FloorNode =
  | { type: 'tenant'; tenantId: number; name: string }
  | { type: 'prompts'; tenantId: number; prompts: PromptSummary[] }
  | { type: 'prompt'; tenantId: number; prompt: PromptSummary };

function promptItem(tenantId: number, prompt: PromptSummary): vscode.TreeItem {
  const item = new vscode.TreeItem(prompt.name, vscode.TreeItemCollapsibleState.Collapsed);
  const uri = vscode.Uri.from({
    scheme: floorScheme,
    authority: 'bench',
    path: `/tenants/${tenantId}/ai_prompts/${prompt.id}.json`,
  });
  item.id = `${tenantId}/${prompt.id}`;
  item.description = prompt.group === null ? '' : `group ${prompt.group}`;
  item.tooltip = `AI Prompt ${prompt.id}\n${prompt.name}`;
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  item.resourceUri = uri;
  item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
  item.contextValue = 'resource:ai_prompts';
  return item;
}

export class FloorTree implements vscode.TreeDataProvider<FloorNode> {
  constructor(
    private readonly client: FloorClient,
    private readonly tenants: readonly { id: number; name: string }[],
  ) {}

  getTreeItem(node: FloorNode): vscode.TreeItem {
    switch (node.type) {
      case 'tenant': {
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = String(node.tenantId);
        return item;
      }
      case 'prompts': {
        const item = new vscode.TreeItem('AI Prompts', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${node.tenantId}/ai_prompts`;
        item.description = String(node.prompts.length);
        return item;
      }
      case 'prompt':
        return promptItem(node.tenantId, node.prompt);
    }
  }

  async getChildren(node?: FloorNode): Promise<FloorNode[]> {
    if (!node) return this.tenants.map(({ id, name }) => ({ type: 'tenant', tenantId: id, name }));
    if (node.type === 'tenant')
      return [{ type: 'prompts', tenantId: node.tenantId, prompts: await this.client.prompts(node.tenantId) }];
    if (node.type === 'prompts')
      return node.prompts.map((prompt) => ({ type: 'prompt', tenantId: node.tenantId, prompt }));
    return [];
  }
}
