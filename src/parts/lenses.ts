import { findNodeAtLocation, parseTree, type Node } from '../core/jsonc';
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { PROMPT_PARTS, SCHEME, type PromptPart } from '../core/uri';
import { parseUri } from '../shared/locations';

const JSON_PARTS: ReadonlySet<PromptPart> = new Set(['function_defs', 'settings']);

function lens(document: vscode.TextDocument, node: Node, title: string, args: Record<string, string>): vscode.CodeLens {
  // On the property's line: the key, not the (possibly long) value.
  const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
  const line = document.positionAt(at).line;
  return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
    title,
    command: COMMANDS.openPromptPart,
    arguments: [document.uri, args],
  });
}

/** "Edit … as Markdown/JSON" above each part's field in a prompt's or an agent's whole document. */
class PartLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const location = parseUri(document.uri);
    if (location?.type !== 'resource') return [];
    const root = parseTree(document.getText());
    if (!root) return [];
    if (location.segment === 'ai_prompts') {
      return PROMPT_PARTS.flatMap((part) => {
        const node = findNodeAtLocation(root, [part]);
        return node
          ? [
              lens(document, node, `$(go-to-file) Edit ${part} as ${JSON_PARTS.has(part) ? 'JSON' : 'Markdown'}`, {
                part,
              }),
            ]
          : [];
      });
    }
    if (location.segment !== 'agents') return [];
    const elements = findNodeAtLocation(root, ['configuration', 'prompt'])?.children ?? [];
    return elements.flatMap((element, index) => {
      const name = findNodeAtLocation(element, ['name'])?.value as unknown;
      const text = findNodeAtLocation(root, ['configuration', 'prompt', index, 'prompt']);
      return typeof name === 'string' && text
        ? [lens(document, text, `$(go-to-file) Edit the prompt of "${name}" as Markdown`, { element: name })]
        : [];
    });
  }
}

export function registerPartLenses(): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider(
    [
      { scheme: SCHEME, pattern: '**/ai_prompts/*.json' },
      { scheme: SCHEME, pattern: '**/agents/*.json' },
    ],
    new PartLenses(),
  );
}
