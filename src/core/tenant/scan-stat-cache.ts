/**
 * The file stat cache (file-stat-cache.ts) in one scan of a folder with its
 * manifest: which resources' files still have the stats they had when a scan
 * last found them as pulled (the scan does not read or hash them), and the
 * lines to keep for the next scan.
 */
import { cacheLine, cacheText, parseCache, settled, statsDigest } from './file-stat-cache';
import type { FolderIO } from './folder-io';
import type { ResourceFileSet } from './folder-layout';
import type { PulledResource } from './manifest';
import { textFile } from './resource-files';

interface Statted {
  entry: PulledResource;
  /** The cache's line for the files as found now. */
  line: string;
  /** Whether the cache held that line already: the files are as a scan found them as pulled. */
  cached: boolean;
  /** Trusted next time: every file had settled when its stat was taken. */
  settled: boolean;
}

export class ScanStatCache {
  private readonly lines: string[] = [];
  /** Lines this scan added: while there are none, the cache is not written again. */
  private added = 0;

  private constructor(
    private readonly io: FolderIO,
    private readonly statted: ReadonlyMap<ResourceFileSet, Statted>,
  ) {}

  /**
   * Stats the files of every resource the manifest has a hash of, before any is read: a file changed after its stat
   * has another one next time, so a stat never vouches for content newer than it. None without the folder's
   * capabilities (FolderIO.fileStats and statCache): then every file is read.
   */
  static async take(
    io: FolderIO,
    resources: readonly ResourceFileSet[],
    pulled: ReadonlyMap<string, PulledResource>,
  ): Promise<ScanStatCache | undefined> {
    if (!io.fileStats || !io.statCache) return undefined;
    const cached = parseCache(await io.statCache.read());
    const candidates = resources.filter(({ file }) => pulled.get(file)?.files !== undefined);
    const takenAt = Date.now();
    const filesOf = ({ file, base, parts }: ResourceFileSet): string[] => [
      file,
      ...parts.map((f) => textFile(base, f)),
    ];
    const stats = await io.fileStats(candidates.flatMap(filesOf));
    const statted = new Map<ResourceFileSet, Statted>();
    let at = 0;
    for (const resource of candidates) {
      const own = stats.slice(at, (at += 1 + resource.parts.length));
      const text = statsDigest(own);
      if (text === undefined) continue;
      const entry = pulled.get(resource.file) as PulledResource;
      const line = cacheLine(resource.file, entry.files as string, resource.parts, text);
      const allSettled = own.every((stat) => stat !== undefined && settled(stat, takenAt));
      statted.set(resource, { entry, line, cached: cached.get(resource.file) === line, settled: allSettled });
    }
    return new ScanStatCache(io, statted);
  }

  /** The entry of a resource whose files have the stats the cache holds for them. */
  unchangedEntry(resource: ResourceFileSet): PulledResource | undefined {
    const statted = this.statted.get(resource);
    return statted?.cached ? statted.entry : undefined;
  }

  /** A resource found as pulled, by its stats or its content: its line is kept, when its stats can be trusted. */
  asPulled(resource: ResourceFileSet, entry: PulledResource): void {
    const statted = this.statted.get(resource);
    if (!statted?.settled || statted.entry !== entry) return;
    this.lines.push(statted.line);
    if (!statted.cached) this.added += 1;
  }

  /**
   * Keeps this scan's lines for the next one, when it added any (a large folder's cache is large). Lines of files
   * changed since are no longer written, but they do no harm meanwhile: they match no stat.
   */
  async save(): Promise<void> {
    if (this.added > 0) await this.io.statCache?.write(cacheText(this.lines));
  }
}
