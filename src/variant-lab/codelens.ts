import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { locateKey } from '../core/json-document';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import { textRange } from '../ui/text-range';

const KEY = '"variants"';

/** "Open Variant Lab" on a suite's `"variants"` key, where the versions to compare are written. */
class VariantLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const text = document.getText();
    // Most suites have no variants: no parse for them.
    if (!text.includes(KEY)) return [];
    const key = locateKey(text, ['variants']);
    if (!key || text.slice(key.offset, key.offset + KEY.length) !== KEY) return [];
    return [
      new vscode.CodeLens(textRange(text, key.offset, key.length), {
        title: '$(beaker) Open Variant Lab',
        tooltip: 'Run every case on the prompt and on each variant, side by side',
        command: COMMANDS.showVariantLab,
        arguments: [document.uri],
      }),
    ];
  }
}

export function registerVariantLenses(): vscode.Disposable {
  // A suite on disk, or an untitled one: a selector without a scheme would also match documents of other schemes.
  const suites = ['file', 'untitled'].map((scheme) => ({ scheme, pattern: `**/*${SUITE_SUFFIX}` }));
  return vscode.languages.registerCodeLensProvider(suites, new VariantLenses());
}
