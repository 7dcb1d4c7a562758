import * as vscode from 'vscode';
import type { JsonObject } from '../core/client';

/** A text input that offers recent values and accepts a new one. */
export function askWithRecent(title: string, placeholder: string, recent: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick();
    pick.title = title;
    pick.placeholder = placeholder;
    pick.ignoreFocusOut = true;
    const recentItems = recent.map((label) => ({ label, description: 'recent' }));
    pick.items = recentItems;
    pick.onDidChangeValue((value) => {
      pick.items = value.trim() && !recent.includes(value) ? [{ label: value, description: 'new' }, ...recentItems] : recentItems;
    });
    let result: string | undefined;
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0]?.label ?? pick.value;
      if (chosen.trim() === '') return;
      result = chosen;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}

export function parseJsonObject(text: string, field: string): JsonObject | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${field} must be a JSON object: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${field} must be a JSON object such as {"name": "value"}.`);
  }
  return value as JsonObject;
}

/** A small JSON input, validated as an object while typing; empty means none. */
export async function askJsonObject(title: string, field: string, initial: JsonObject): Promise<JsonObject | undefined | null> {
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
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  // null: the user cancelled; undefined: no parameters.
  return text === undefined ? null : parseJsonObject(text, field);
}
