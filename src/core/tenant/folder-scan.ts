/**
 * A tenant folder read whole: every entry is a resource file, a text part of
 * one, the manifest or an allowed extra, or it is a problem (nothing is
 * silently ignored); every resource file is read back into its values.
 */
import type { JsonObject } from '../json';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { folderLayout, type ResourceFileSet } from './folder-layout';
import type { FolderProblem } from './folder-problems';
import type { PromptTextField } from '../prompt-text';
import type { PulledResource } from './manifest';
import { filesHash, resourceFromTexts, textFile, textOfFile } from './representation';
import { ScanStamps } from './scan-stamps';

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

/**
 * A resource whose files are as its entry records (their hash, or their kept stamps, say so): the pull or push that
 * wrote them parsed them already. Its texts are read (when the scan did not) and its values parsed at first use; the
 * plan of an unchanged folder of 50,000 prompts never asks. A class, not an object of closures: a scan makes one per
 * resource, and its getters then cost nothing per instance.
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
    private readonly io: FolderIO,
    private texts?: Texts,
  ) {
    this.segment = segment;
    this.base = base;
    this.file = file;
    this.id = asPulled.id;
  }

  private read(): Texts {
    return (this.texts ??= {
      json: this.io.readKnown(this.file) ?? '',
      markdown: new Map(this.parts.map((field) => [field, this.io.readKnown(textFile(this.base, field)) ?? ''])),
    });
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
function matchedEntry(entry: PulledResource | undefined, json: string, markdown: ReadonlyMap<PromptTextField, string>): PulledResource | undefined {
  if (entry?.files === undefined) return undefined;
  const parts = [...markdown].map(([field, text]) => [field, textOfFile(text)] as const);
  return filesHash({ json, parts }) === entry.files ? entry : undefined;
}

export async function scanFolder(io: FolderIO, { texts = true, pulled }: ScanOptions = {}): Promise<FolderScan> {
  const entries = await io.walk();
  const layout = folderLayout(entries, pulled);
  // The layout's messages lead with the entry's path, which a folder problem keeps apart.
  const problems: FolderProblem[] = layout.problems.map((p) => ({ file: p.path, message: p.message.startsWith(`${p.path}: `) ? p.message.slice(p.path.length + 2) : p.message }));
  const unreadable = new Set<string>();
  const stamps = pulled && texts ? await ScanStamps.take(io, layout.resources, pulled) : undefined;
  // Every file in one run, then each resource from its texts: a large folder's scan is its reads. A resource's files
  // are found by their place in the run (its JSON file, then its parts in order), not by a map of 100,000 paths.
  const partsOf = (parts: readonly PromptTextField[]): readonly PromptTextField[] => (texts ? parts : []);
  const toRead = stamps ? layout.resources.filter((resource) => stamps.unchangedEntry(resource) === undefined) : layout.resources;
  const read = await io.readMany(toRead.flatMap(({ file, base, parts }) => [file, ...partsOf(parts).map((field) => textFile(base, field))]));
  const local: LocalResource[] = [];
  let at = 0;
  for (const resource of layout.resources) {
    const { segment, base, file, parts } = resource;
    const unchanged = stamps?.unchangedEntry(resource);
    if (unchanged) {
      stamps?.asPulled(resource, unchanged);
      local.push(new AsPulled(resource, unchanged, [...parts], io));
      continue;
    }
    const own = partsOf(parts);
    const first = at;
    at += 1 + own.length;
    const failed = read.slice(first, at).find((o): o is Error => o instanceof Error);
    const part = (field: PromptTextField): string | undefined => {
      const index = own.indexOf(field);
      return index < 0 ? undefined : read[first + 1 + index] as string | undefined;
    };
    const json = read[first] as string | undefined;
    if (!failed && json !== undefined && pulled?.has(file) && own.length === parts.length) {
      const markdown = new Map(own.flatMap((field) => {
        const text = part(field);
        return text === undefined ? [] : [[field, text] as const];
      }));
      const entry = matchedEntry(pulled.get(file), json, markdown);
      if (entry) {
        stamps?.asPulled(resource, entry);
        local.push(new AsPulled(resource, entry, [...markdown.keys()], io, { json, markdown }));
        continue;
      }
    }
    const result = failed
      ? { ok: false as const, problem: { file, message: `cannot be read (${failed.message}); check the file and its permissions` } }
      : resourceFromTexts(kindOfSegment(segment), base, json, part);
    if (result.ok) {
      local.push({ segment, file, ...(result.id === undefined ? {} : { id: result.id }), values: result.values, text: result.text, parts: result.parts });
    } else {
      problems.push(result.problem);
      unreadable.add(file);
    }
  }
  await stamps?.save();
  return { local, problems, unreadable };
}
