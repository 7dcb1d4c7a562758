/**
 * `convai-tenant.json`: where a folder's resources came from (connection,
 * base URL, tenant) and, for each, its file and a hash per field of the state
 * it was pulled from, which the plan compares with the folder and the service.
 * Entries are plain, read-only data: read with JSON.parse whatever the
 * layout, written with JSON.stringify one entry per line, so that a pull's
 * diff in a versioned folder shows one line per resource that changed.
 */
import { TENANT_SEGMENTS } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { foldedName, unsafePath } from './folder-paths';
import { jsonProblem, type FolderProblem } from './folder-problems';
import { isJsonObject } from '../json';
import { fingerprintText, type FingerprintText } from './field-fingerprints';

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
  readonly segment: Segment;
  readonly id: number;
  /** The resource's JSON file, relative to the folder: `ai_prompts/order-triage.json`. */
  readonly file: string;
  readonly name: string;
  /** A fingerprint per field of the pulled state, as text (field-fingerprints.ts: fieldHashes). */
  readonly fields: FingerprintText;
  /** A hash of the files of that state as a pull writes them (representation.ts: filesHash); absent in older folders. */
  readonly files?: string;
}

/**
 * A create sent whose answer has not arrived (yet): recorded before the request, so that after a lost answer the
 * next plan or push looks for the resource on the service (by kind and name) instead of creating it again.
 */
export interface PendingCreate {
  readonly segment: Segment;
  readonly file: string;
  readonly name: string;
}

export interface Manifest {
  readonly connection: string;
  readonly baseUrl: string;
  readonly tenantId: number;
  readonly resources: readonly PulledResource[];
  readonly pending?: readonly PendingCreate[];
}

export class ManifestError extends Error {}

/** What reading a folder without a manifest says: pull one into it. */
export function noManifest(): ManifestError {
  return new ManifestError(`This folder holds no pulled tenant (no ${MANIFEST_FILE}); pull one into it first.`);
}

const SEGMENTS: readonly string[] = ['tenants', ...TENANT_SEGMENTS];

function isFingerprints(value: unknown): value is Record<string, string> {
  if (!isJsonObject(value)) return false;
  for (const field in value) if (typeof value[field] !== 'string') return false;
  return true;
}

/** `at`: where the entry is, for the message of one that is not an entry: `convai-tenant.json: resources[3]`. */
function pulledResource(value: unknown, at: string): PulledResource {
  if (!isJsonObject(value)) throw new ManifestError(`${at} must be an object`);
  const { segment, id, file, name, fields, files } = value;
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment)) {
    throw new ManifestError(`${at}.segment must be one of ${SEGMENTS.join(', ')}`);
  }
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new ManifestError(`${at}.id must be an integer`);
  if (typeof file !== 'string' || !file.endsWith('.json')) {
    throw new ManifestError(`${at}.file must name the resource's .json file`);
  }
  if (typeof fields !== 'string' && !isFingerprints(fields)) {
    throw new ManifestError(`${at}.fields must hold the field hashes of a pull`);
  }
  // As parsed, when it is a whole entry of this version (a large folder has 65,000); anything else a property may
  // hold beside them is never written back (entryRecord).
  if (typeof name === 'string' && typeof fields === 'string' && (files === undefined || typeof files === 'string'))
    return value as unknown as PulledResource;
  return {
    segment: segment as Segment,
    id,
    file,
    name: typeof name === 'string' ? name : `#${id}`,
    ...(typeof files === 'string' ? { files } : {}),
    // An object in folders pulled by the version before this one.
    fields: typeof fields === 'string' ? fields : fingerprintText(Object.entries(fields)),
  };
}

function pendingCreate(value: unknown, at: string): PendingCreate {
  if (!isJsonObject(value)) throw new ManifestError(`${at} must be an object`);
  const { segment, file, name } = value;
  if (
    typeof segment !== 'string' ||
    !SEGMENTS.includes(segment) ||
    typeof file !== 'string' ||
    typeof name !== 'string'
  ) {
    throw new ManifestError(`${at} must hold the segment, file and name of a create under way`);
  }
  return { segment: segment as Segment, file, name };
}

/**
 * An entry with exactly the manifest's properties, in the order it writes them: what is read and written is what the
 * type says, whatever else an object built by spreading another holds.
 */
export function entryRecord({ segment, id, file, name, files, fields }: PulledResource): PulledResource {
  return { segment, id, file, name, ...(files === undefined ? {} : { files }), fields };
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
  if (entry.segment === 'tenants') {
    const expected = `${TENANT_BASE}.json`;
    return entry.file === expected
      ? undefined
      : `"${entry.file}" is not where a resource of tenants lives (${expected})`;
  }
  const name = entry.file.startsWith(`${entry.segment}/`) ? entry.file.slice(entry.segment.length + 1) : '/';
  const fits = name.endsWith('.json') && !name.includes('/');
  return fits
    ? undefined
    : `"${entry.file}" is not where a resource of ${entry.segment} lives (${entry.segment}/<name>.json)`;
}

/**
 * Every entry must name a file of its kind's folder: a manifest edited by a pull request must not make a pull,
 * plan or push read or write anywhere else.
 */
function manifestProblems(manifest: Manifest, text: string): FolderProblem[] {
  const problems: FolderProblem[] = [];
  const seen = new Map<string, number>();
  const fix = 'nothing is read or written there; correct the entry, or pull the tenant into a new folder';
  const check = (
    list: 'resources' | 'pending',
    index: number,
    entry: Pick<PulledResource, 'segment' | 'file'>,
  ): void => {
    const at = `${list}[${index}].file`;
    const problem = entryFileProblem(entry);
    const earlier = list === 'resources' ? seen.get(foldedName(entry.file)) : undefined;
    const message = problem
      ? `${at}: ${problem}; ${fix}`
      : earlier !== undefined
        ? `${at}: "${entry.file}" is also the file of resources[${earlier}] (names that differ only in case are one file on Windows and macOS); ${fix}`
        : undefined;
    if (message) problems.push(jsonProblem(MANIFEST_FILE, text, [list, index, 'file'], message));
    if (!problem && list === 'resources') seen.set(foldedName(entry.file), index);
  };
  manifest.resources.forEach((entry, index) => check('resources', index, entry));
  (manifest.pending ?? []).forEach((entry, index) => check('pending', index, entry));
  return problems;
}

/** The folder's manifest and the problems of its entries; undefined when the folder was never pulled into. */
export async function loadManifest(io: FolderIO): Promise<LoadedManifest | undefined> {
  const text = await io.read(MANIFEST_FILE);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ManifestError(`${MANIFEST_FILE} is not valid JSON; pull the tenant again into a new folder`);
  }
  const { connection, baseUrl, tenantId, resources, pending } = isJsonObject(value) ? value : {};
  if (
    typeof connection !== 'string' ||
    typeof baseUrl !== 'string' ||
    typeof tenantId !== 'number' ||
    !Array.isArray(resources) ||
    (pending !== undefined && !Array.isArray(pending))
  ) {
    throw new ManifestError(
      `${MANIFEST_FILE} must hold connection, baseUrl, tenantId and resources; pull the tenant again into a new folder`,
    );
  }
  const creates = (pending ?? []).map((entry, index) => pendingCreate(entry, `${MANIFEST_FILE}: pending[${index}]`));
  const written: Manifest = {
    connection,
    baseUrl,
    tenantId,
    resources: resources.map((entry, index) => pulledResource(entry, `${MANIFEST_FILE}: resources[${index}]`)),
    ...(creates.length > 0 ? { pending: creates } : {}),
  };
  const journalText = await io.read(JOURNAL_FILE);
  const manifest = journalText === undefined ? written : replayed(written, journalText);
  return { manifest, problems: manifestProblems(manifest, text) };
}

/** A step of a push as its journal keeps it: an entry set (replacing the one of `replaces`), dropped, or the creates under way. */
export type JournalStep =
  | { set: PulledResource; replaces?: string }
  | { drop: string }
  | { pending: readonly PendingCreate[] };

/** Records a step of a push; the next read of the manifest sees it, the next write folds it in. */
export async function journal(io: FolderIO, step: JournalStep): Promise<void> {
  await io.append(JOURNAL_FILE, `${JSON.stringify('set' in step ? { ...step, set: entryRecord(step.set) } : step)}\n`);
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
  const resources = [...byFile.values()];
  return { connection, baseUrl, tenantId, resources, ...(pending && pending.length > 0 ? { pending } : {}) };
}

/** The folder's manifest; undefined when the folder was never pulled into. */
export async function readManifest(io: FolderIO): Promise<Manifest | undefined> {
  return (await loadManifest(io))?.manifest;
}

/** Whether an entry's file may be read and written: one that may not is a problem of the manifest, never touched. */
export function isSafeEntry(entry: Pick<PulledResource, 'segment' | 'file'>): boolean {
  return entryFileProblem(entry) === undefined;
}
