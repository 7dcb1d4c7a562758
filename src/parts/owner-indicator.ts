import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import type { ListingCache } from '../core/listing-cache';
import { describeLocation, isPart, partName, shortLabel, toResourceUriString, wholeOf } from '../core/uri';
import type { ChangeReport } from '../documents/changes';
import { describeNamed } from '../listings/names';
import { parseUri } from '../shared/locations';

/**
 * Whose part the active editor holds. Its tab reads `system.md` for every prompt (the contract's URIs end so), so
 * the status bar names the prompt or agent while the part is the active editor; a click opens the whole document.
 */
export function partOwnerIndicator(
  listings: ListingCache,
  onDidChange: vscode.Event<ChangeReport>,
): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('convai.partOwner', vscode.StatusBarAlignment.Left, 101);
  item.name = 'ConvAI part of';
  let shown: string | undefined;
  const update = async (): Promise<void> => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const location = uri && parseUri(uri);
    if (!uri || !location || !isPart(location)) {
      shown = undefined;
      item.hide();
      return;
    }
    const whole = wholeOf(location);
    shown = uri.toString();
    // Named by id at once; by name once the listing answers (it is usually cached by the tree that opened the part).
    const show = (owner: string): void => {
      const part = partName(location);
      // Our icon, then the owner's name as text: the status bar draws `$(x)` in a name as an icon too.
      item.text = plain`$(file-symlink-file) ${shortLabel(owner)} · ${part}`;
      item.tooltip = plain`${part} of ${owner}. Click to open its whole document.`;
      item.command = {
        title: 'Open the Whole Document',
        command: 'vscode.open',
        arguments: [vscode.Uri.parse(toResourceUriString(whole))],
      };
      item.show();
    };
    show(describeLocation(whole));
    const named = await describeNamed(listings, whole);
    if (shown === uri.toString()) show(named);
  };
  const refresh = (): void => void update();
  refresh();
  return [
    item,
    vscode.window.onDidChangeActiveTextEditor(refresh),
    // A rename saved from the whole document or the tree shows here at once.
    onDidChange(refresh),
  ];
}
