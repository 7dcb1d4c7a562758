/**
 * A map on show follows what it was read from: a pulled folder's files (edits,
 * pulls and pushes all land there), or a live tenant's saves, creates, deletes,
 * pushes, promotions and Refresh, which the change service reports. Each
 * burst of changes reads the map once, after it settles.
 */
import * as vscode from 'vscode';
import { documentFate, touchesTenant } from '../core/changes';
import { Debouncer } from '../core/debounce';
import { LIMITS } from '../core/limits';
import type { JsonObject } from '../core/json';
import { isTenantSegment } from '../core/resources';
import type { Changes } from '../documents/changes';
import { TEST_FILE_GLOBS } from './tenant-tests';

export type MapSource =
  | { type: 'folder'; folder: string }
  | { type: 'tenant'; connection: string; tenantId: number; name?: string };

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

  /** Drops the details of the resources `stale` names, by the node ids' kind and id (`ai_prompts/3`). */
  drop(stale: (segment: string, id: number) => boolean): void {
    for (const node of this.details.keys()) {
      const [segment = '', id = ''] = node.split('/');
      if (stale(segment, Number(id))) this.details.delete(node);
    }
  }
}

/** What redraws a map: `live()` turns false once the map stopped following (another map, or the panel closed). */
export type Redraw = (live: () => boolean) => Promise<void>;

/** Runs `redraw` once a burst of changes has settled, and never two at once: a change during a redraw runs it again after. */
function settled(redraw: Redraw): { poke(): void; dispose(): void } {
  // Long enough for a push's or a pull's writes to end before the map is read again.
  const settle = new Debouncer<'map'>(LIMITS.settleDelay.value);
  let running: Promise<void> | undefined;
  let again = false;
  let disposed = false;
  const run = (): void => {
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
      if (!disposed) settle.schedule('map', run);
    },
    dispose: () => {
      disposed = true;
      settle.dispose();
    },
  };
}

/** Pokes on every change to a file `pattern` matches. */
function watching(pattern: vscode.GlobPattern, poke: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(pattern);
  return vscode.Disposable.from(
    watcher.onDidChange(poke),
    watcher.onDidCreate(poke),
    watcher.onDidDelete(poke),
    watcher,
  );
}

/**
 * What makes the map of `source` stale pokes `redraw`; a live tenant's stale details are dropped first. The
 * workspace's test files give prompts their roles, so a change to one redraws the map too.
 */
export function followMap(
  source: MapSource,
  details: TenantDetails,
  { changes }: { changes: Changes },
  redraw: Redraw,
): vscode.Disposable {
  const later = settled(redraw);
  const poke = (): void => later.poke();
  const tests = TEST_FILE_GLOBS.map((glob) => watching(glob, poke));
  if (source.type === 'folder') {
    const folder = new vscode.RelativePattern(vscode.Uri.file(source.folder), '**/*');
    return vscode.Disposable.from(watching(folder, poke), ...tests, later);
  }
  const { connection, tenantId } = source;
  const changed = changes.onDidChange(({ change }) => {
    if (!touchesTenant(change, connection, tenantId)) return;
    // The details of what the change covers are stale; a created resource's are none yet, the tenant's record is no node.
    details.drop(
      (segment, id) =>
        isTenantSegment(segment) &&
        documentFate(change, { type: 'resource', connection, tenantId, segment, id }) !== 'untouched',
    );
    later.poke();
  });
  return vscode.Disposable.from(changed, ...tests, later);
}
