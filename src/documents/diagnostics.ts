import * as vscode from 'vscode';
import { locate, locateKey, type SyntaxProblem } from '../core/json-document';
import type { FieldProblem } from '../core/save-plan';
import { textRange } from '../ui/text-range';

/** Keywords whose problem sits on the property name rather than its value. */
const ON_KEY = new Set(['additionalProperties', 'readOnly']);

/** At least one character, so a problem at the end of the text still shows. */
function range(text: string, offset: number, length: number): vscode.Range {
  return textRange(text, offset, Math.max(length, 1));
}

/** The problems that refused a save, each at its position in the document. */
export class SaveDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('convai');

  show(uri: vscode.Uri, text: string, syntax: readonly SyntaxProblem[], fields: readonly FieldProblem[]): void {
    const diagnostics = [
      ...syntax.map(
        (p) => new vscode.Diagnostic(range(text, p.offset, p.length), p.message, vscode.DiagnosticSeverity.Error),
      ),
      ...fields.map((p) => {
        const at = (ON_KEY.has(p.keyword) ? locateKey(text, p.path) : undefined) ??
          locate(text, p.path) ?? { offset: 0, length: 1 };
        return new vscode.Diagnostic(range(text, at.offset, at.length), p.message, vscode.DiagnosticSeverity.Error);
      }),
    ];
    for (const diagnostic of diagnostics) diagnostic.source = 'ConvAI';
    this.collection.set(uri, diagnostics);
  }

  has(uri: vscode.Uri): boolean {
    return (this.collection.get(uri)?.length ?? 0) > 0;
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
