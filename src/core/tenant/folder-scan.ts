/**
 * A tenant folder read whole: every entry is a resource file, a text part of
 * one, the manifest or an allowed extra, or it is a problem (nothing is
 * silently ignored); every resource file is read back into its values.
 */
import type { JsonObject } from '../json';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import { readAll, type FolderIO } from './folder-io';
import { folderLayout, type ResourceFileSet } from './folder-layout';
import type { FolderProblem } from './folder-problems';
import type { PromptTextField } from '../prompt-text';
import type { PulledResource } from './manifest';
import { filesHash, resourceFromTexts, textFile, textOfFile } from './resource-files';
import { ScanStatCache } from './scan-stat-cache';

export interface LocalResource {
  segment: Segment;
  file: string;
  id?: number;
  values: JsonObject;
  /** The JSON file's text, for pointing problems at their place. */
  text?: string;
  /** The prompt texts that came from Markdown files. */
  parts: string[];
  /**
   * The manifest's entry when the resource's files are byte for byte those it records (the scan was given the
   * manifest): then the id and name are the entry's, and `values` are parsed only when asked for.
   */
  asPulled?: PulledResource;
}

export interface FolderScan {
  local: LocalResource[];
  problems: FolderProblem[];
  /** Resource files that are there but cannot be read: their resources are neither updated nor deleted. */
  unreadable: Set<string>;
}

export interface ScanOptions {
  /**
   * `false` leaves prompts' Markdown parts unread, and their fields out of the values: for readers of references
   * alone (the flow map), which then read half the files of a folder of prompts.
   */
  texts?: boolean;
  /**
   * The manifest's entries by file: a resource whose files are as an entry records is not parsed until asked, and
   * each entry's file is a resource's whatever its name (folder-layout.ts: isFolderExtra).
   */
  pulled?: ReadonlyMap<string, PulledResource>;
}

interface Texts {
  json: string;
  markdown: ReadonlyMap<PromptTextField, string>;
}

/** Reads a file at once (FolderIO.readNow). */
type ReadNow = (file: string) => string | undefined;

/**
 * A resource whose files are as its entry records (their hash, or their cached stats, say so): the pull or push that
 * wrote them parsed them already. Its values are parsed at first use, and its texts read then when the scan did not
 * read them; the plan of an unchanged folder never asks.
 */
class AsPulled implements LocalResource {
  readonly segment: Segment;
  private readonly base: string;
  readonly file: string;
  readonly id: number;
  private parsed: JsonObject | undefined;

  constructor(
    { segment, base, file }: ResourceFileSet,
    readonly asPulled: PulledResource,
    readonly parts: PromptTextField[],
    private texts: Texts | ReadNow,
  ) {
    this.segment = segment;
    this.base = base;
    this.file = file;
    this.id = asPulled.id;
  }

  private read(): Texts {
    if (typeof this.texts === 'function') {
      const readNow = this.texts;
      const markdown = this.parts.map((field) => [field, readNow(textFile(this.base, field)) ?? ''] as const);
      this.texts = { json: readNow(this.file) ?? '', markdown: new Map(markdown) };
    }
    return this.texts;
  }

  get text(): string {
    return this.read().json;
  }

  get values(): JsonObject {
    if (this.parsed === undefined) {
      const { json, markdown } = this.read();
      const read = resourceFromTexts(kindOfSegment(this.segment), this.base, json, (field) => markdown.get(field));
      this.parsed = read.ok ? read.values : {};
    }
    return this.parsed;
  }
}

/**
 * The entry a resource's files match, when the manifest records their hash and they hash to it: the texts as the
 * pull wrote them, every Markdown file's with its one final newline taken off.
 */
function matchedEntry(
  entry: PulledResource | undefined,
  json: string,
  markdown: ReadonlyMap<PromptTextField, string>,
): PulledResource | undefined {
  if (entry?.files === undefined) return undefined;
  const parts = [...markdown].map(([field, text]) => [field, textOfFile(text)] as const);
  return filesHash({ json, parts }) === entry.files ? entry : undefined;
}

export async function scanFolder(io: FolderIO, { texts = true, pulled }: ScanOptions = {}): Promise<FolderScan> {
  const entries = await io.walk();
  const layout = folderLayout(entries, pulled);
  // The layout's messages lead with the entry's path, which a folder problem keeps apart.
  const problems: FolderProblem[] = layout.problems.map((p) => ({
    file: p.path,
    message: p.message.startsWith(`${p.path}: `) ? p.message.slice(p.path.length + 2) : p.message,
  }));
  const unreadable = new Set<string>();
  const cache = pulled && texts ? await ScanStatCache.take(io, layout.resources, pulled) : undefined;
  // A resource whose files have their cached stats is read only when asked, where the folder can read at once.
  const readNow = io.readNow?.bind(io);
  const deferred = (resource: ResourceFileSet): PulledResource | undefined =>
    readNow ? cache?.unchangedEntry(resource) : undefined;
  // Every file in one run, then each resource from its texts: a large folder's scan is its reads. A resource's files
  // are found by their place in the run (its JSON file, then its parts in order), not by a map of 100,000 paths.
  const partsOf = (parts: readonly PromptTextField[]): readonly PromptTextField[] => (texts ? parts : []);
  const toRead = layout.resources.filter((resource) => deferred(resource) === undefined);
  const read = await readAll(
    io,
    toRead.flatMap(({ file, base, parts }) => [file, ...partsOf(parts).map((field) => textFile(base, field))]),
  );
  const local: LocalResource[] = [];
  let at = 0;
  for (const resource of layout.resources) {
    const { segment, base, file, parts } = resource;
    const unchanged = deferred(resource);
    if (unchanged && readNow) {
      cache?.asPulled(resource, unchanged);
      local.push(new AsPulled(resource, unchanged, [...parts], readNow));
      continue;
    }
    const own = partsOf(parts);
    const first = at;
    at += 1 + own.length;
    const failed = read.slice(first, at).find((o): o is Error => o instanceof Error);
    const part = (field: PromptTextField): string | undefined => {
      const index = own.indexOf(field);
      return index < 0 ? undefined : (read[first + 1 + index] as string | undefined);
    };
    const json = read[first] as string | undefined;
    if (!failed && json !== undefined && pulled?.has(file) && own.length === parts.length) {
      const markdown = new Map(
        own.flatMap((field) => {
          const text = part(field);
          return text === undefined ? [] : [[field, text] as const];
        }),
      );
      // Files with their cached stats hold what the entry records: no need to hash them.
      const entry = cache?.unchangedEntry(resource) ?? matchedEntry(pulled.get(file), json, markdown);
      if (entry) {
        cache?.asPulled(resource, entry);
        local.push(new AsPulled(resource, entry, [...markdown.keys()], { json, markdown }));
        continue;
      }
    }
    const result = failed
      ? {
          ok: false as const,
          problem: { file, message: `cannot be read (${failed.message}); check the file and its permissions` },
        }
      : resourceFromTexts(kindOfSegment(segment), base, json, part);
    if (result.ok) {
      local.push({
        segment,
        file,
        ...(result.id === undefined ? {} : { id: result.id }),
        values: result.values,
        text: result.text,
        parts: result.parts,
      });
    } else {
      problems.push(result.problem);
      unreadable.add(file);
    }
  }
  await cache?.save();
  return { local, problems, unreadable };
}
