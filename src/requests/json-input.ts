import * as vscode from 'vscode';
import { parseJsonObject, type JsonObject } from '../core/json';
import { messageOf } from '../core/text';

/** A small JSON input, validated as an object while typing; empty means none. */
export async function askJsonObject(
  title: string,
  field: string,
  initial: JsonObject,
): Promise<JsonObject | undefined | null> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: `${field} as a JSON object (optional; leave empty for none)`,
    value: Object.keys(initial).length > 0 ? JSON.stringify(initial) : '',
    ignoreFocusOut: true,
    validateInput: (value) => {
      try {
        parseJsonObject(value, field);
        return undefined;
      } catch (error) {
        return messageOf(error);
      }
    },
  });
  // null: the user cancelled; undefined: no parameters.
  return text === undefined ? null : parseJsonObject(text, field);
}
