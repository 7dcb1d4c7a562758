import * as vscode from 'vscode';
import { lineAndColumn } from '../core/text';

/** The editor's range of `length` characters from `offset` of `text`, for diagnostics and test items placed by a parser's offsets. */
export function textRange(text: string, offset: number, length: number): vscode.Range {
  const position = (at: number): vscode.Position => {
    const { line, column } = lineAndColumn(text, at);
    return new vscode.Position(line - 1, column - 1);
  };
  return new vscode.Range(position(offset), position(offset + length));
}
