/**
 * The stamps of one scan of a folder with its manifest (file-stamps.ts): which resources' files still carry the
 * stamps they had when found as pulled (the scan does not read them), and the records to keep for the next scan.
 */
import { parseStamps, recordLine, settled, stampsText, stampText } from './file-stamps';
import type { FolderIO } from './folder-io';
import type { ResourceFileSet } from './folder-layout';
import type { PulledResource } from './manifest';
import { textFile } from './representation';

interface Stamped {
  entry: PulledResource;
  /** The record of the files as found now (file-stamps.ts: recordLine). */
  line: string;
  /** Trusted next time: every file had settled when stamped. */
  settled: boolean;
}

export class ScanStamps {
  private readonly lines: string[] = [];

  private constructor(
    private readonly io: FolderIO,
    private readonly loaded: string | undefined,
    /** The resources whose files are as the kept stamps say, so as pulled, with their entries. */
    private readonly unchanged: ReadonlyMap<ResourceFileSet, PulledResource>,
    private readonly stamped: ReadonlyMap<string, Stamped>,
  ) {}

  /**
   * Stamps the files of every resource the manifest has a hash of, before any is read: a file changed after its
   * stamp has another one next time, so a stamp never vouches for content newer than it.
   */
  static async take(io: FolderIO, resources: readonly ResourceFileSet[], pulled: ReadonlyMap<string, PulledResource>): Promise<ScanStamps> {
    const loaded = await io.stampStore?.read();
    const kept = parseStamps(loaded);
    const candidates = resources.filter(({ base }) => pulled.get(`${base}.json`)?.files !== undefined);
    const takenAt = Date.now();
    const stamps = await io.stamps(candidates.flatMap(({ base, parts }) => [`${base}.json`, ...parts.map((field) => textFile(base, field))]));
    const unchanged = new Map<ResourceFileSet, PulledResource>();
    const stamped = new Map<string, Stamped>();
    let at = 0;
    for (const resource of candidates) {
      const { base, parts } = resource;
      // One pass over the resource's stamps, no array of them: a scan makes this line for 65,000 resources.
      let texts = '';
      let allSettled = true;
      let missing = false;
      for (let index = 0; index <= parts.length; index++) {
        const stamp = stamps[at + index];
        if (stamp === undefined) {
          missing = true;
          break;
        }
        texts = index === 0 ? stampText(stamp) : `${texts} ${stampText(stamp)}`;
        allSettled &&= settled(stamp, takenAt);
      }
      at += 1 + parts.length;
      if (missing) continue;
      const file = `${base}.json`;
      const entry = pulled.get(file) as PulledResource;
      const line = recordLine(file, entry.files as string, parts, texts);
      stamped.set(file, { entry, line, settled: allSettled });
      if (kept.get(file) === line) unchanged.set(resource, entry);
    }
    return new ScanStamps(io, loaded, unchanged, stamped);
  }

  /** The entry of a resource whose files are as its kept stamps say. */
  unchangedEntry(resource: ResourceFileSet): PulledResource | undefined {
    return this.unchanged.get(resource);
  }

  /** A resource found as pulled, by its stamps or its content: its stamps are kept, when they can be trusted. */
  asPulled(file: string, entry: PulledResource): void {
    const stamped = this.stamped.get(file);
    if (stamped?.settled && stamped.entry === entry) this.lines.push(stamped.line);
  }

  /** Keeps the records of this scan for the next one (only when they differ: a folder of 50,000 has a large one). */
  async save(): Promise<void> {
    const text = stampsText(this.lines);
    if (text !== (this.loaded ?? stampsText([]))) await this.io.stampStore?.write(text);
  }
}
