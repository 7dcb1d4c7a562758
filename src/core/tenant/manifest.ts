/**
 * `convai-tenant.json`: where a folder's resources came from (connection,
 * base URL, tenant) and, for each, its file and a hash per field of the state
 * it was pulled from, which the plan compares with the folder and the service.
 */
import { formatDocument, parseDocument } from '../json-document';
import { TENANT_SEGMENTS } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { foldedName, isDeviceName, isExtraName, unsafePath } from './folder-paths';
import { jsonProblem, type FolderProblem } from './folder-problems';
import { isJsonObject, type Json, type JsonObject } from '../json';
import { fieldFingerprint } from './representation';

export const MANIFEST_FILE = 'convai-tenant.json';
/**
 * What a push changed in the manifest since it was last written, a line per step, replayed whenever the manifest is
 * read and folded into it when it is next written: a step costs one short append, not a rewrite of every entry, and a
 * push stopped midway still leaves each applied step recorded. A dotfile: a folder's own extra, never a resource.
 */
export const JOURNAL_FILE = '.convai-tenant.journal';
/** The tenant's own file, beside the kinds' folders. */
export const TENANT_BASE = 'tenant';

export interface PulledResource {
  segment: Segment;
  id: number;
  /** The resource's JSON file, relative to the folder: `ai_prompts/order-triage.json`. */
  file: string;
  name: string;
  /** A fingerprint per field of the pulled state (representation.ts: fieldHashes). */
  fields: Record<string, string>;
  /** A hash of the files of that state as a pull writes them (representation.ts: filesHash); absent in older folders. */
  files?: string;
}

/**
 * A create sent whose answer has not arrived (yet): recorded before the request, so that after a lost answer the
 * next plan or push looks for the resource on the service (by kind and name) instead of creating it again.
 */
export interface PendingCreate {
  segment: Segment;
  file: string;
  name: string;
}

export interface Manifest {
  connection: string;
  baseUrl: string;
  tenantId: number;
  resources: PulledResource[];
  pending?: PendingCreate[];
}

export class ManifestError extends Error {}

/** What reading a folder without a manifest says: pull one into it. */
export function noManifest(): ManifestError {
  return new ManifestError(`This folder holds no pulled tenant (no ${MANIFEST_FILE}); pull one into it first.`);
}

const SEGMENTS: readonly string[] = ['tenants', ...TENANT_SEGMENTS];

/** A field's fingerprint as a manifest keeps it, among others space-separated (a tenth of the objects to parse). */
function fieldPair(field: string, fingerprint: string): string {
  return `${field}:${fingerprint}`;
}

function fieldsText(fields: Record<string, string>): string {
  return Object.keys(fields).map((field) => fieldPair(field, fields[field] as string)).join(' ');
}

/**
 * A resource's values' fingerprints (representation.ts: fieldFingerprint) as a manifest keeps them: what a pull
 * makes of each of 65,000 resources, without an object of them on the way.
 */
export function fingerprintsText(values: JsonObject): string {
  return Object.keys(values).map((field) => fieldPair(field, fieldFingerprint(values[field] as Json))).join(' ');
}

function fieldsFromText(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of text.split(' ')) {
    const colon = pair.lastIndexOf(':');
    if (colon > 0) fields[pair.slice(0, colon)] = pair.slice(colon + 1);
  }
  return fields;
}

/**
 * Kept on an entry, where neither a copy (`{ ...entry }`) nor its JSON sees them: its field fingerprints as the
 * manifest's text, which a manifest written again takes as it is, and then as split from it; the entry's line as the
 * manifest held it. Properties, not WeakMaps: a folder's 65,000 entries in a WeakMap slowed every collection of garbage.
 */
const FIELDS_TEXT = Symbol('fieldsText');
const FIELDS = Symbol('fields');
const LINE = Symbol('line');

interface EntryExtras {
  [FIELDS_TEXT]?: string;
  [FIELDS]?: Record<string, string>;
  [LINE]?: string;
}

function hidden(entry: object, key: symbol, value: unknown): void {
  Object.defineProperty(entry, key, { value, writable: true, enumerable: false });
}

/** One getter for every entry (a getter per entry gave each its own hidden class). */
const FIELDS_FROM_TEXT: PropertyDescriptor = {
  enumerable: true,
  get(this: PulledResource & EntryExtras): Record<string, string> {
    if (this[FIELDS] === undefined) hidden(this, FIELDS, fieldsFromText(this[FIELDS_TEXT] as string));
    return this[FIELDS] as Record<string, string>;
  },
};

/**
 * An entry whose field fingerprints are the manifest's text (fingerprintsText), read from it when first asked for: only
 * a changed resource's are, so a plan or a pull of a large unchanged folder neither splits them nor writes them out
 * again, and a pull holds 65,000 of them at once.
 */
export function compactEntry(head: Omit<PulledResource, 'fields'>, text: string): PulledResource {
  hidden(head, FIELDS_TEXT, text);
  return Object.defineProperty(head, 'fields', FIELDS_FROM_TEXT) as PulledResource;
}

function fieldsTextIn(entry: PulledResource): string | undefined {
  return (entry as PulledResource & EntryExtras)[FIELDS_TEXT];
}

/** An entry with the field fingerprints of `from` (whose state it has), still as text if they are. */
export function sameFields(head: Omit<PulledResource, 'fields'>, from: PulledResource): PulledResource {
  const text = fieldsTextIn(from);
  if (text === undefined) return { ...head, fields: from.fields };
  const entry = compactEntry(head, text);
  // The same entry as the manifest held (a pull of an unchanged resource): its line is written again as it was.
  const line = (from as PulledResource & EntryExtras)[LINE];
  const same = head.segment === from.segment && head.id === from.id && head.file === from.file && head.name === from.name && head.files === from.files;
  if (line !== undefined && same) hidden(entry, LINE, line);
  return entry;
}

function fieldsTextOf(entry: PulledResource): string {
  return fieldsTextIn(entry) ?? fieldsText(entry.fields);
}

/** `at`: where the entry is, for the message of one that is not an entry: `convai-tenant.json: resources[3]`. */
function pulledResource(value: unknown, at: string): PulledResource {
  if (!isJsonObject(value)) throw new ManifestError(`${at} must be an object`);
  const { segment, id, file, name, fields, files } = value;
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment)) throw new ManifestError(`${at}.segment must be one of ${SEGMENTS.join(', ')}`);
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new ManifestError(`${at}.id must be an integer`);
  if (typeof file !== 'string' || !file.endsWith('.json')) throw new ManifestError(`${at}.file must name the resource's .json file`);
  // Folders pulled before the text form keep an object of hashes.
  const object = isJsonObject(fields) && Object.values(fields).every((h) => typeof h === 'string');
  if (typeof fields !== 'string' && !object) throw new ManifestError(`${at}.fields must hold the field hashes of a pull`);
  const entry = { segment: segment as Segment, id, file, name: typeof name === 'string' ? name : `#${id}`, ...(typeof files === 'string' ? { files } : {}) };
  return typeof fields === 'string' ? compactEntry(entry, fields) : { ...entry, fields: fields as Record<string, string> };
}

function pendingCreate(value: unknown, at: string): PendingCreate {
  if (!isJsonObject(value)) throw new ManifestError(`${at} must be an object`);
  const { segment, file, name } = value;
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment) || typeof file !== 'string' || typeof name !== 'string') {
    throw new ManifestError(`${at} must hold the segment, file and name of a create under way`);
  }
  return { segment: segment as Segment, file, name };
}

export interface LoadedManifest {
  manifest: Manifest;
  /** Entries naming a file a folder may not have: outside it, a device, another kind's folder. */
  problems: FolderProblem[];
}

/** Why an entry's file is not the place of its resource in the folder, or undefined when it is. */
function entryFileProblem(entry: Pick<PulledResource, 'segment' | 'file'>): string | undefined {
  const unsafe = unsafePath(entry.file);
  if (unsafe) return `"${entry.file}" ${unsafe}`;
  const expected = entry.segment === 'tenants' ? `${TENANT_BASE}.json` : `${entry.segment}/<name>.json`;
  const fits = entry.segment === 'tenants'
    ? entry.file === `${TENANT_BASE}.json`
    : entry.file.startsWith(`${entry.segment}/`) && entry.file.endsWith('.json') && !entry.file.slice(entry.segment.length + 1).includes('/');
  return fits ? undefined : `"${entry.file}" is not where a resource of ${entry.segment} lives (${expected})`;
}

/**
 * Every entry must name a file of its kind's folder: a manifest edited by a pull request must not make a pull,
 * plan or push read or write anywhere else.
 */
function manifestProblems(manifest: Manifest, text: string): FolderProblem[] {
  const problems: FolderProblem[] = [];
  const seen = new Map<string, number>();
  const fix = 'nothing is read or written there; correct the entry, or pull the tenant into a new folder';
  const check = (list: 'resources' | 'pending', index: number, entry: Pick<PulledResource, 'segment' | 'file'>): void => {
    const path = [list, index, 'file'];
    const problem = entryFileProblem(entry);
    if (problem) {
      problems.push(jsonProblem(MANIFEST_FILE, text, path, `${list}[${index}].file: ${problem}; ${fix}`));
      return;
    }
    const key = foldedName(entry.file);
    const earlier = seen.get(key);
    if (list === 'resources' && earlier !== undefined) {
      problems.push(jsonProblem(MANIFEST_FILE, text, path, `${list}[${index}].file: "${entry.file}" is also the file of resources[${earlier}] (names that differ only in case are one file on Windows and macOS); ${fix}`));
    }
    if (list === 'resources') seen.set(key, index);
  };
  manifest.resources.forEach((entry, index) => check('resources', index, entry));
  (manifest.pending ?? []).forEach((entry, index) => check('pending', index, entry));
  return problems;
}

const RESOURCES_OPEN = '\n  "resources": [\n';
const ENTRY_INDENT = '    ';

/**
 * The manifest parsed a line per entry, as writeManifest writes it, with each entry's line; undefined for any other
 * layout (a manifest written by hand, or an entry over several lines), which is then parsed whole. Its value is the
 * one of the whole text: the lines, each one element with its separating comma, are the array's text.
 */
function parsedByLines(text: string): { value: unknown; lines: string[] } | undefined {
  const open = text.indexOf(RESOURCES_OPEN);
  const close = text.indexOf('\n  ]', open);
  if (open < 0 || close < 0) return undefined;
  const body = text.slice(open + RESOURCES_OPEN.length, close);
  const rows = body === '' ? [] : body.split('\n');
  const lines: string[] = [];
  const resources: unknown[] = [];
  try {
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index] as string;
      const last = index === rows.length - 1;
      if (!row.startsWith(ENTRY_INDENT) || row.endsWith(',') === last) return undefined;
      const line = row.slice(ENTRY_INDENT.length, last ? undefined : -1);
      resources.push(JSON.parse(line));
      lines.push(line);
    }
    const value: unknown = JSON.parse(`${text.slice(0, open + RESOURCES_OPEN.length - 1)}${text.slice(close + 1)}`);
    if (!isJsonObject(value) || !Array.isArray(value.resources) || value.resources.length !== 0) return undefined;
    return { value: { ...value, resources }, lines };
  } catch {
    return undefined;
  }
}

/** The folder's manifest and the problems of its entries; undefined when the folder was never pulled into. */
export async function loadManifest(io: FolderIO): Promise<LoadedManifest | undefined> {
  const text = await io.read(MANIFEST_FILE);
  if (text === undefined) return undefined;
  const byLines = parsedByLines(text);
  const { value, syntaxProblems } = byLines ? { value: byLines.value, syntaxProblems: [] } : parseDocument(text);
  if (syntaxProblems.length > 0 || !isJsonObject(value)) throw new ManifestError(`${MANIFEST_FILE} is not valid JSON; pull the tenant again into a new folder`);
  const { connection, baseUrl, tenantId, resources, pending } = value;
  if (typeof connection !== 'string' || typeof baseUrl !== 'string' || typeof tenantId !== 'number' || !Array.isArray(resources) || (pending !== undefined && !Array.isArray(pending))) {
    throw new ManifestError(`${MANIFEST_FILE} must hold connection, baseUrl, tenantId and resources; pull the tenant again into a new folder`);
  }
  const written: Manifest = {
    connection, baseUrl, tenantId,
    resources: resources.map((value, index) => {
      const entry = pulledResource(value, `${MANIFEST_FILE}: resources[${index}]`);
      const line = byLines?.lines[index];
      // The write that follows a push of 100 changes into a folder of 65,000 resources writes the others' lines as
      // they were, instead of making each again.
      if (line !== undefined) hidden(entry, LINE, line);
      return entry;
    }),
    ...(Array.isArray(pending) && pending.length > 0 ? { pending: pending.map((entry, index) => pendingCreate(entry, `${MANIFEST_FILE}: pending[${index}]`)) } : {}),
  };
  const journal = await io.read(JOURNAL_FILE);
  const manifest = journal === undefined ? written : replayed(written, journal);
  return { manifest, problems: manifestProblems(manifest, text) };
}

/** A step of a push as its journal keeps it: an entry set (replacing the one of `replaces`), dropped, or the creates under way. */
export type JournalStep = { set: PulledResource; replaces?: string } | { drop: string } | { pending: PendingCreate[] };

/** The step's line: the entry as the manifest writes it, fingerprints as text. */
function journalLine(step: JournalStep): string {
  return `${JSON.stringify('set' in step ? { ...step, set: entryRecord(step.set) } : step)}\n`;
}

/** Records a step of a push; the next read of the manifest sees it, the next write folds it in. */
export async function journal(io: FolderIO, step: JournalStep): Promise<void> {
  await io.append(JOURNAL_FILE, journalLine(step));
}

/** The manifest with the journal's steps applied in order; each step sets a state, so replaying one twice changes nothing. */
function replayed(manifest: Manifest, text: string): Manifest {
  const byFile = new Map(manifest.resources.map((entry) => [entry.file, entry]));
  let { pending } = manifest;
  const lines = text.split('\n');
  // Only lines that end in a newline were written whole: a push stopped in the middle of an append leaves a torn last one.
  lines.pop();
  lines.forEach((line, index) => {
    const at = `${JOURNAL_FILE}: line ${index + 1}`;
    let step: unknown;
    try {
      step = JSON.parse(line);
    } catch {
      throw new ManifestError(`${at} is not valid JSON; pull the tenant again into a new folder`);
    }
    if (isJsonObject(step) && 'set' in step) {
      const entry = pulledResource(step.set, `${at}: set`);
      if (typeof step.replaces === 'string') byFile.delete(step.replaces);
      byFile.set(entry.file, entry);
    } else if (isJsonObject(step) && typeof step.drop === 'string') {
      byFile.delete(step.drop);
    } else if (isJsonObject(step) && Array.isArray(step.pending)) {
      pending = step.pending.map((entry, i) => pendingCreate(entry, `${at}: pending[${i}]`));
    } else {
      throw new ManifestError(`${at} is no step of a push; pull the tenant again into a new folder`);
    }
  });
  const { connection, baseUrl, tenantId } = manifest;
  return { connection, baseUrl, tenantId, resources: [...byFile.values()], ...(pending && pending.length > 0 ? { pending } : {}) };
}

/** The folder's manifest; undefined when the folder was never pulled into. */
export async function readManifest(io: FolderIO): Promise<Manifest | undefined> {
  return (await loadManifest(io))?.manifest;
}

/** Whether an entry's file may be read and written: one that may not is a problem of the manifest, never touched. */
export function isSafeEntry(entry: Pick<PulledResource, 'segment' | 'file'>): boolean {
  return entryFileProblem(entry) === undefined;
}

/** An array with an entry per line: a pull changes the lines of the resources that changed, and reads back fast. */
function linesOf(lines: readonly string[]): string {
  return lines.length === 0 ? '[]' : `[\n${ENTRY_INDENT}${lines.join(`,\n${ENTRY_INDENT}`)}\n  ]`;
}

/** An entry as the manifest and the journal write it. */
function entryRecord(entry: PulledResource): object {
  return { segment: entry.segment, id: entry.id, file: entry.file, name: entry.name, ...(entry.files === undefined ? {} : { files: entry.files }), fields: fieldsTextOf(entry) };
}

/** Writes the whole manifest, then drops the journal it folds in (read before, its steps are in `manifest`). */
export async function writeManifest(io: FolderIO, manifest: Manifest): Promise<void> {
  const { connection, baseUrl, tenantId, pending } = manifest;
  // In code-unit order: the same on every machine, whatever its locale, and a tenth of the time of localeCompare.
  const resources = [...manifest.resources].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((entry) => (entry as PulledResource & EntryExtras)[LINE] ?? JSON.stringify(entryRecord(entry)));
  const head = formatDocument({ connection, baseUrl, tenantId }).trimEnd().slice(0, -2);
  const lists = [`  "resources": ${linesOf(resources)}`, ...(pending && pending.length > 0 ? [`  "pending": ${linesOf(pending.map((p) => JSON.stringify(p)))}`] : [])];
  // Whole or not at all: the Source Control view reads it the moment it appears, and a stop mid-write loses nothing.
  await io.replace(MANIFEST_FILE, `${head},\n${lists.join(',\n')}\n}\n`);
  // Stopped before this, the journal is replayed over a manifest that holds it already, which changes nothing.
  await io.remove(JOURNAL_FILE);
}

/** A file name a person finds the resource by: `Order Triage` → `order-triage`. */
export function slug(name: string): string {
  const text = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return text.slice(0, 60).replace(/-+$/, '');
}

/**
 * The bases a new resource's file may not take (compared as folded names, one file on Windows and macOS): those of
 * the manifest's entries, and of the folder's JSON files.
 */
export function takenBases(entries: readonly Pick<PulledResource, 'file'>[], files: Iterable<string>): Set<string> {
  const taken = new Set(entries.map((entry) => foldedName(entry.file.replace(/\.json$/, ''))));
  for (const file of files) if (file.endsWith('.json')) taken.add(foldedName(file.slice(0, -'.json'.length)));
  return taken;
}

const MANIFEST_STEM = MANIFEST_FILE.slice(0, -'.json'.length);

/**
 * A slug (letters, digits and -, so no dotfile and no suffix such as `.system.md` or `.prompttest.json`) as the stem
 * of a file that every reader of a folder takes for the resource's and nothing else, told apart by `mark` (its id)
 * where it would not be: after a device's name (a prompt called "Con" would be no file at all on Windows) or the
 * manifest's (VS Code takes every convai-tenant.json for a pulled folder's), before a README's, whose start is what
 * makes it one (a folder keeps "readme-guide.json" as the person's own, and a plan then deleted "README Guide").
 */
export function fileStem(slugged: string, mark: number): string {
  if (isExtraName(slugged)) return `${mark}-${slugged}`;
  return isDeviceName(slugged) || slugged === MANIFEST_STEM ? `${slugged}-${mark}` : slugged;
}

/**
 * The base (file without `.json`) of a resource in the folder: the name it had
 * there before, else its name's slug (fileStem), made unique with its id.
 */
export function resourceBase(segment: Segment, id: number, name: string, previous: string | undefined, taken: ReadonlySet<string>): string {
  if (previous !== undefined) return previous.replace(/\.json$/, '');
  if (segment === 'tenants') return TENANT_BASE;
  const slugged = slug(name);
  const stem = slugged === '' ? `${segment.replace(/s$/, '')}-${id}` : fileStem(slugged, id);
  const base = `${segment}/${stem}`;
  return taken.has(foldedName(base)) ? `${base}-${id}` : base;
}
