/**
 * A map on show follows what it was read from: a pulled folder's files (edits,
 * pulls and pushes all land there), or a live tenant's saves, creates, deletes,
 * pushes and Refresh, which the documents and the listings announce. Each
 * burst of changes reads the map once, after it settles.
 */
import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import type { JsonObject } from '../core/json';
import type { ConvaiFileSystem } from '../documents/filesystem';

/** Long enough for a push's or a pull's writes to end before the map is read again. */
const SETTLE_MS = 300;

export type MapSource = { type: 'folder'; folder: string } | { type: 'tenant'; connection: string; tenantId: number; name?: string };

/**
 * The details a live tenant's map was read with, by node id, so reading it
 * again asks the service only for what may have changed since.
 */
export class TenantDetails {
  private readonly details = new Map<string, JsonObject>();

  get(node: string): JsonObject | undefined {
    return this.details.get(node);
  }

  set(node: string, detail: JsonObject): void {
    this.details.set(node, detail);
  }

  /** Drops a kind's details (`ai_prompts/`), or every one. */
  drop(prefix = ''): void {
    for (const node of this.details.keys()) if (node.startsWith(prefix)) this.details.delete(node);
  }
}

/** What redraws a map: `live()` turns false once the map stopped following (another map, or the panel closed). */
export type Redraw = (live: () => boolean) => Promise<void>;

/** Runs `redraw` once a burst of changes has settled, and never two at once: a change during a redraw runs it again after. */
function settled(redraw: Redraw): { poke(): void; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let disposed = false;
  const run = (): void => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = redraw(() => !disposed).finally(() => {
      running = undefined;
      if (again && !disposed) {
        again = false;
        run();
      }
    });
  };
  return {
    poke: () => {
      if (disposed) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, SETTLE_MS);
    },
    dispose: () => {
      disposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** What makes the map of `source` stale pokes `redraw`; a live tenant's stale details are dropped first. */
export function followMap(
  source: MapSource, details: TenantDetails, { files, listings }: { files: ConvaiFileSystem; listings: ListingCache }, redraw: Redraw,
): vscode.Disposable {
  const later = settled(redraw);
  if (source.type === 'folder') {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(source.folder), '**/*'));
    const poke = (): void => later.poke();
    return vscode.Disposable.from(watcher.onDidChange(poke), watcher.onDidCreate(poke), watcher.onDidDelete(poke), watcher, later);
  }
  const { connection, tenantId } = source;
  const saved = files.onDidChangeResource((location) => {
    if (location.connection !== connection || location.tenantId !== tenantId) return;
    // A part's save changes its resource; the tenant's own record is no node, only the title's name.
    if (location.type !== 'tenant') details.drop(`${location.segment}/${location.id}`);
    later.poke();
  });
  const dropped = listings.onDidInvalidate((scope) => {
    if ((scope.connection ?? connection) !== connection || (scope.tenantId ?? tenantId) !== tenantId) return;
    // A kind's listing dropped (a save, a create, a delete, Refresh of the kind) may hide changed details of that kind;
    // a wider scope (Refresh of the tenant or the connection, a push) may hide any. The tenants' listing holds only names.
    if (scope.segment !== 'tenants') details.drop(scope.segment === undefined ? '' : `${scope.segment}/`);
    later.poke();
  });
  return vscode.Disposable.from(saved, new vscode.Disposable(dropped.dispose), later);
}
