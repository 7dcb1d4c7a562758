import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import type { ListingCache } from '../core/listing-cache';
import type { ChangeReport } from '../documents/changes';
import { findReferenceValues, itemWithId, namesId, nameTarget, type TargetName } from '../core/references';
import { rangeIn, referringResource, targetListings } from './documents';

interface NamedReference {
  range: vscode.Range;
  target: TargetName;
}

/** The references whose targets the tenant's listings name, placed in the text they were read from. */
async function namedReferences(
  listings: ListingCache,
  document: vscode.TextDocument,
  within?: vscode.Range | vscode.Position,
): Promise<NamedReference[]> {
  const resource = referringResource(document);
  if (!resource) return [];
  const values = findReferenceValues(document.getText(), resource.segment)
    .filter(namesId)
    .map((value) => ({ value, range: rangeIn(document, value) }))
    .filter(
      ({ range }) =>
        within === undefined ||
        (within instanceof vscode.Position ? range.contains(within) : range.intersection(within) !== undefined),
    );
  if (values.length === 0) return [];
  const listing = await targetListings(
    listings,
    resource,
    values.map(({ value }) => value),
  );
  return values.flatMap(({ value, range }) => {
    const item = itemWithId(listing(value.reference.to) ?? [], value.id);
    return item ? [{ range, target: nameTarget(value.reference.to, item) }] : [];
  });
}

/** `"next_prompt_id": 3 · Order Resolution`: the target's name after each reference value. */
export class ReferenceNameHints implements vscode.InlayHintsProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this.changed.event;
  private readonly invalidated: { dispose(): void };

  constructor(
    private readonly listings: ListingCache,
    onDidChange: vscode.Event<ChangeReport>,
  ) {
    // A listing loaded afresh may name targets differently (a rename, a new or deleted resource).
    this.invalidated = onDidChange(() => this.changed.fire());
  }

  async provideInlayHints(
    document: vscode.TextDocument,
    range: vscode.Range,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlayHint[]> {
    const named = await namedReferences(this.listings, document, range);
    if (token.isCancellationRequested) return [];
    return named.map(({ range: value, target }) => {
      // A name in the line of the editor, as text: a right-to-left override in it would reverse the rest of the line.
      const hint = new vscode.InlayHint(value.end, plain`· ${target.name}`);
      hint.paddingLeft = true;
      hint.tooltip =
        target.description === undefined
          ? plainText(target.heading)
          : `${plainText(target.heading)}\n${plainText(target.description)}`;
      return hint;
    });
  }

  dispose(): void {
    this.invalidated.dispose();
    this.changed.dispose();
  }
}

/** `AI Prompt 3 · Order Resolution` and its description, on the reference value. */
export class ReferenceNameHovers implements vscode.HoverProvider {
  constructor(private readonly listings: ListingCache) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const [named] = await namedReferences(this.listings, document, position);
    if (!named || token.isCancellationRequested) return undefined;
    const contents = [new vscode.MarkdownString().appendText(plainText(named.target.heading))];
    if (named.target.description !== undefined)
      contents.push(new vscode.MarkdownString().appendText(plainText(named.target.description)));
    return new vscode.Hover(contents, named.range);
  }
}
