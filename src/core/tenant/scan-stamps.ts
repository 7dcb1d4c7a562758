/**
 * The stamps of one scan of a folder with its manifest (file-stamps.ts): which resources' files still carry the
 * stamps they had when found as pulled (the scan does not read them), and the records to keep for the next scan.
 */
import { digestOf, lineRecords, parseStamps, recordLine, stampsText } from './file-stamps';
import type { FolderIO } from './folder-io';
import type { ResourceFileSet } from './folder-layout';
import type { PulledResource } from './manifest';
import { textFile } from './representation';

interface Stamped {
  entry: PulledResource;
  /** The digest of the files' stamps as found now (file-stamps.ts: StampDigest). */
  digest: string;
  /** The kept line, when it records the files as found now. */
  kept: string | undefined;
  /** Trusted next time: every file had settled when stamped. */
  settled: boolean;
}

export class ScanStamps {
  private readonly lines: string[] = [];
  /** Lines made by this scan: while there are none, the store is not written again. */
  private made = 0;

  private constructor(
    private readonly io: FolderIO,
    private readonly stamped: ReadonlyMap<ResourceFileSet, Stamped>,
  ) {}

  /**
   * Stamps the files of every resource the manifest has a hash of, before any is read: a file changed after its
   * stamp has another one next time, so a stamp never vouches for content newer than it.
   */
  static async take(io: FolderIO, resources: readonly ResourceFileSet[], pulled: ReadonlyMap<string, PulledResource>): Promise<ScanStamps> {
    const kept = parseStamps(await io.stampStore?.read());
    const candidates = resources.filter(({ file }) => pulled.get(file)?.files !== undefined);
    const takenAt = Date.now();
    const files: string[] = [];
    for (const { file, base, parts } of candidates) {
      files.push(file);
      for (const field of parts) files.push(textFile(base, field));
    }
    const stamps = await io.stamps(files);
    const stamped = new Map<ResourceFileSet, Stamped>();
    let at = 0;
    for (const resource of candidates) {
      const { file, parts } = resource;
      const found = digestOf(stamps, at, 1 + parts.length, takenAt);
      at += 1 + parts.length;
      if (!found) continue;
      const entry = pulled.get(file) as PulledResource;
      const line = kept.get(file);
      const same = line !== undefined && lineRecords(line, file, entry.files as string, parts, found.digest);
      stamped.set(resource, { entry, digest: found.digest, settled: found.settled, kept: same ? line : undefined });
    }
    return new ScanStamps(io, stamped);
  }

  /** The entry of a resource whose files are as its kept stamps say. */
  unchangedEntry(resource: ResourceFileSet): PulledResource | undefined {
    const stamped = this.stamped.get(resource);
    return stamped?.kept === undefined ? undefined : stamped.entry;
  }

  /** A resource found as pulled, by its stamps or its content: its stamps are kept, when they can be trusted. */
  asPulled(resource: ResourceFileSet, entry: PulledResource): void {
    const stamped = this.stamped.get(resource);
    if (!stamped?.settled || stamped.entry !== entry) return;
    if (stamped.kept !== undefined) {
      this.lines.push(stamped.kept);
      return;
    }
    this.lines.push(recordLine(resource.file, entry.files as string, resource.parts, stamped.digest));
    this.made += 1;
  }

  /**
   * Keeps the records of this scan for the next one, when it made any (a folder of 50,000 has a large one). Kept lines
   * of files changed since are no longer written, but they do no harm meanwhile: they match no stamp.
   */
  async save(): Promise<void> {
    if (this.made === 0) return;
    await this.io.stampStore?.write(stampsText(this.lines));
  }
}
