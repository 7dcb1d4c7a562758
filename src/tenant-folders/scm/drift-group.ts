/**
 * The "Changed on the service" group of a pulled folder's list: its drift
 * (core/tenant/drift.ts: what changed, appeared or disappeared on the service
 * since the pull), asked for when the user refreshes, after a push or a pull,
 * or by convai.drift, never on its own. Each row is one file of a drifted
 * resource and opens the folder's file beside the service's version as a pull
 * would write it; Take Service Version writes that version into the folder.
 */
import * as vscode from 'vscode';
import { plain, plainText } from '../../core/plain-text';
import type { ServiceClient } from '../../core/client';
import { kindOfSegment } from '../../core/resources';
import { findDrift, type DriftChange, type Drifted } from '../../core/tenant/drift';
import type { FolderIO } from '../../core/tenant/folder-io';
import { loadManifest, MANIFEST_FILE, type Manifest, type PulledResource } from '../../core/tenant/manifest';
import { resourceBase, takenBases } from '../../core/tenant/resource-paths';
import { folderValues } from '../../core/tenant/folder-values';
import { resourceFiles } from '../../core/tenant/resource-files';
import { messageOf } from '../../core/text';
import { ChangeState, diffCommand, serviceSideTitle } from './change-states';
import { changedFiles, type ChangeAction, type ChangedFile } from './changed-files';
import type { ScmDeps } from './deps';

export const DRIFT_GROUP = 'drift';
const LABEL = 'Changed on the service';
/** The rows' URIs: a resource's kind and name, not a file, so that the list reads as what changed. */
const DRIFT_SCHEME = 'convai-drift';

const ACTIONS: Record<DriftChange, ChangeAction> = { changed: 'update', created: 'create', deleted: 'delete' };

/** A row of the group; Take Service Version reads the resource back from it. */
export class DriftState extends ChangeState {
  constructor(
    readonly folder: string,
    readonly drifted: Drifted,
    row: ChangedFile,
    resourceUri: vscode.Uri,
    command: vscode.Command,
  ) {
    super(row, resourceUri, command, `tenantFolderDrift:${drifted.change}`);
  }
}

/** The drift found, against the manifest it was found for, with the service's version of each file it names. */
interface Found {
  manifest: Manifest;
  drifted: Drifted[];
  texts: Map<string, string>;
  at: Date;
}

/** Where the drift stands, for the status bar. */
export interface DriftSummary {
  /** Drifted resources still in effect; undefined when the service was not asked since the folder was pulled. */
  count?: number;
  at?: Date;
  error?: string;
}

/** Whether an entry still describes the state it described when the drift was found (no take, pull or push since). */
function sameEntry(a: PulledResource | undefined, b: PulledResource | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.file === b.file &&
    (a.files !== undefined && b.files !== undefined
      ? a.files === b.files
      : JSON.stringify(a.fields) === JSON.stringify(b.fields))
  );
}

function entryOf(manifest: Manifest, { segment, id }: Pick<Drifted, 'segment' | 'id'>): PulledResource | undefined {
  return manifest.resources.find((entry) => entry.segment === segment && entry.id === id);
}

/** The JSON file a drifted resource has in the folder, or would have once taken. */
function fileOf(drifted: Drifted, manifest: Manifest): string {
  return (
    drifted.file ??
    `${resourceBase(drifted.segment, drifted.id, drifted.name, undefined, takenBases(manifest.resources, []))}.json`
  );
}

/** A row's label: the resource's name and what changed of it in that file. */
function labelOf(drifted: Drifted, row: ChangedFile): string {
  // A created resource's JSON file holds all its fields: naming them says nothing.
  const fields = drifted.change === 'changed' || row.file !== row.change.file ? `: ${row.fields.join(', ')}` : '';
  const suffix =
    drifted.change === 'changed' ? '' : ` (${drifted.change === 'created' ? 'new' : 'deleted'} on the service)`;
  return plainText(`${drifted.name}${fields}${suffix}`);
}

export class DriftGroup implements vscode.Disposable {
  private readonly group: vscode.SourceControlResourceGroup;
  private readonly key: string;
  private readonly registration: vscode.Disposable;
  private found: Found | undefined;
  private error: string | undefined;
  /** The fetch under way; a newer one drops it. */
  private fetching: AbortController | undefined;

  constructor(
    scm: vscode.SourceControl,
    private readonly root: vscode.Uri,
    private readonly deps: ScmDeps,
  ) {
    this.group = scm.createResourceGroup(DRIFT_GROUP, LABEL);
    this.group.hideWhenEmpty = true;
    this.key = `drift:${root.fsPath}`;
    this.registration = deps.files.add(this.key, (file) => Promise.resolve(this.found?.texts.get(file)));
  }

  /** Asks the service for the folder's drift and keeps it; the list shows it at its next render. */
  async fetch(
    client: ServiceClient,
    io: FolderIO,
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<Drifted[]> {
    this.fetching?.abort();
    const controller = new AbortController();
    this.fetching = controller;
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    try {
      const loaded = await loadManifest(io);
      if (!loaded) throw new Error(`${this.root.fsPath} holds no pulled tenant (no ${MANIFEST_FILE}).`);
      const drifted = await findDrift(client, io, { signal, onProgress: options.onProgress, loaded });
      const texts = new Map<string, string>();
      for (const item of drifted) {
        if (!item.detail) continue;
        const kind = kindOfSegment(item.segment);
        const base = fileOf(item, loaded.manifest).replace(/\.json$/, '');
        for (const [file, text] of resourceFiles(kind, item.id, folderValues(kind, item.detail), base))
          texts.set(file, text);
      }
      if (this.fetching === controller) {
        this.found = { manifest: loaded.manifest, drifted, texts, at: new Date() };
        this.error = undefined;
        this.deps.files.reload(this.key);
      }
      return drifted;
    } catch (error) {
      // A fetch dropped for a newer one, or cancelled, leaves what was known.
      if (this.fetching === controller && !signal.aborted) this.error = messageOf(error);
      throw error;
    } finally {
      if (this.fetching === controller) this.fetching = undefined;
    }
  }

  /** A pull just read the service's state into the folder of `manifest`: nothing has drifted. */
  pulled(manifest: Manifest): void {
    this.fetching?.abort();
    this.fetching = undefined;
    this.found = { manifest, drifted: [], texts: new Map(), at: new Date() };
    this.error = undefined;
    this.deps.files.reload(this.key);
  }

  /** The drift still in effect for `manifest`: a resource taken, pulled or pushed since is no longer listed. */
  current(manifest: Manifest): Drifted[] {
    const found = this.found;
    if (!found) return [];
    return found.drifted.filter((item) =>
      item.change === 'created'
        ? entryOf(manifest, item) === undefined
        : sameEntry(entryOf(manifest, item), entryOf(found.manifest, item)),
    );
  }

  summary(manifest: Manifest): DriftSummary {
    return {
      ...(this.found ? { count: this.current(manifest).length, at: this.found.at } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  /** Shows the rows of the drift still in effect; `connection` names the service's side of their diffs. */
  render(manifest: Manifest, connection: string): DriftState[] {
    const found = this.found;
    const states = found ? this.current(manifest).flatMap((item) => this.states(item, found.manifest, connection)) : [];
    this.group.resourceStates = states;
    this.group.label = this.error ? plain`${LABEL} (not checked: ${this.error})` : LABEL;
    // A failed check shows on the group even with nothing listed, rather than in a message after every refresh.
    this.group.hideWhenEmpty = this.error === undefined;
    return states;
  }

  private states(item: Drifted, manifest: Manifest, connection: string): DriftState[] {
    const kind = kindOfSegment(item.segment);
    const file = fileOf(item, manifest);
    const values = item.detail && folderValues(kind, item.detail);
    // A created resource's every field is new: its JSON file and each text file are rows.
    const fields = item.change === 'created' && values ? Object.keys(values) : item.fields;
    const rows = changedFiles({
      action: ACTIONS[item.change],
      segment: item.segment,
      name: item.name,
      file,
      fields,
      reason: 'on the service',
      ...(values ? { values } : {}),
    });
    return rows.map((row) => {
      const name = row.file.split('/').pop() ?? row.file;
      const folderSide =
        item.change === 'created'
          ? this.deps.files.empty(row.file)
          : vscode.Uri.joinPath(this.root, ...row.file.split('/'));
      const serviceSide =
        item.change === 'deleted' ? this.deps.files.empty(row.file) : this.deps.files.uri(this.key, row.file);
      const label = labelOf(item, row).replace(/\//g, '\u2215');
      const uri = vscode.Uri.from({
        scheme: DRIFT_SCHEME,
        path: `/${kind.label}/${label}`,
        query: this.root.fsPath,
        fragment: row.file,
      });
      return new DriftState(
        this.root.fsPath,
        item,
        row,
        uri,
        diffCommand(folderSide, serviceSide, `${name} (folder ↔ ${serviceSideTitle(connection)})`),
      );
    });
  }

  dispose(): void {
    this.fetching?.abort();
    this.registration.dispose();
  }
}
