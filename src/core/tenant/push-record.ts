/**
 * The manifest as a push keeps it current while it sends: each step appended to the manifest's journal as it is
 * taken, so a push that stops midway is continued, not repeated, and the journal folded in once at the end.
 */
import { ByResource } from './by-resource';
import type { FolderIO } from './folder-io';
import { journal, type Manifest, type PendingCreate, type PulledResource } from './manifest';
import { writeManifest } from './manifest-writer';
import type { PlannedChange } from './plan';

/** The manifest as a push keeps it current: entries found by kind and id, each step appended to its journal. */
export class FolderRecord {
  private readonly entries: ByResource<PulledResource>;
  private pending: readonly PendingCreate[];

  constructor(
    private readonly io: FolderIO,
    private readonly manifest: Manifest,
  ) {
    this.entries = new ByResource(manifest.resources.map((entry) => [entry, entry]));
    this.pending = manifest.pending ?? [];
  }

  entryOf(change: PlannedChange): PulledResource | undefined {
    return change.id === undefined ? undefined : this.entries.get({ segment: change.segment, id: change.id });
  }

  /** A create about to be sent: if its answer is lost, the next plan finds the resource instead of creating it twice. */
  async creating(change: PlannedChange): Promise<void> {
    this.pending = [
      ...this.pending.filter((p) => p.file !== change.file),
      { segment: change.segment, file: change.file, name: change.name },
    ];
    await journal(this.io, { pending: this.pending });
  }

  async set(entry: PulledResource, replacing?: PulledResource): Promise<void> {
    this.entries.set(entry, entry);
    await journal(this.io, {
      set: entry,
      ...(replacing && replacing.file !== entry.file ? { replaces: replacing.file } : {}),
    });
    if (this.pending.some((p) => p.file === entry.file)) {
      this.pending = this.pending.filter((p) => p.file !== entry.file);
      await journal(this.io, { pending: this.pending });
    }
  }

  async delete(entry: PulledResource | undefined): Promise<void> {
    if (!entry) return;
    this.entries.delete(entry);
    await journal(this.io, { drop: entry.file });
  }

  /** The journal folded into the manifest, once, when the push ends however it ends. */
  async fold(): Promise<void> {
    await writeManifest(this.io, { ...this.manifest, resources: [...this.entries.values()], pending: this.pending });
  }
}
