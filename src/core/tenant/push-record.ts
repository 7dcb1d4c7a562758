/**
 * The manifest as a push keeps it current while it sends: each step appended to the manifest's journal as it is
 * taken, so a push that stops midway is continued, not repeated, and the journal folded in at the end.
 */
import { ByResource } from './by-resource';
import type { FolderIO } from './folder-io';
import { LIMITS } from '../limits';
import { journal, JOURNAL_FILE, type Manifest, type PendingCreate, type PulledResource } from './manifest';
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

  /**
   * The journal folded into the manifest, when the push ends however it ends. Not while the journal is short beside
   * the manifest: its few steps are replayed at each read for less than a rewrite of every entry costs (a push of a
   * few changes into a folder of 50,000 resources), and the push that makes it long folds them all.
   */
  async fold(): Promise<void> {
    const steps = ((await this.io.read(JOURNAL_FILE)) ?? '').split('\n').length - 1;
    if (steps * LIMITS.entriesPerJournalStep.value < this.manifest.resources.length) return;
    await writeManifest(this.io, { ...this.manifest, resources: [...this.entries.values()], pending: this.pending });
  }
}
