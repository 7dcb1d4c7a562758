import * as vscode from 'vscode';

/** The resource tree; empty until connections exist, so the view shows its welcome content. */
class ResourceTree implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}

export function register(): vscode.Disposable[] {
  return [vscode.window.registerTreeDataProvider('convai.resources', new ResourceTree())];
}
