/**
 * A saved plan: what a push sends, in its order, and what each change was
 * planned against, so that the push after a review sends exactly what was
 * reviewed or nothing at all (contract: "Saved plans, drift and review").
 *
 * It holds a hash of every file of the folder a push reads (the manifest,
 * each resource's files, and anything else a plan would report), and a hash
 * of the service's state of each resource a change touches. It holds no
 * value of any field, so no credential: the push reads the values from the
 * files it has just verified. READMEs and dotfiles are left out (unless the
 * manifest lists them as pulled): a push never reads them, and the saved plan
 * may itself be kept as a dotfile in the folder.
 */
import { hash } from 'node:crypto';
import path from 'node:path';
import { sameBaseUrl } from '../base-url';
import type { ServiceClient } from '../client';
import { CREDENTIAL_MASK } from '../credentials';
import { canonical, isJsonObject, type JsonObject } from '../json';
import { TENANT_SEGMENTS, type Segment } from '../resources';
import { plural } from '../text';
import { hideUrlPasswords } from '../url-credentials';
import type { FolderIO } from './folder-io';
import { isFolderExtra, type PulledFiles } from './folder-layout';
import { loadManifest, type LoadedManifest, type Manifest, noManifest } from './manifest';
import { planPush, type Plan } from './plan';
import { PushRefused } from './push-refused';

/** The format's version: a saved plan of another version is refused rather than read wrongly. */
export const SAVED_PLAN_VERSION = 1;
/** The key that marks a JSON file as a saved plan, holding its version. */
const FORMAT_KEY = 'convaiSavedPlan';

export interface SavedChange {
  action: 'create' | 'update' | 'delete';
  segment: Segment;
  id?: number;
  name: string;
  fields: string[];
  file: string;
  /** A hash of the service's state the change was planned against; none for a create. */
  service?: string;
}

export interface SavedPlan {
  baseUrl: string;
  tenantId: number;
  /** A hash of each file a push reads, by path. */
  files: Record<string, string>;
  /** In the order a push sends them. */
  changes: SavedChange[];
}

/** A file that is not a saved plan of this folder, or a plan that cannot be saved: nothing is sent. */
export class SavedPlanError extends Error {}

/** The folder's files or the service's state moved since the plan was saved: nothing was sent. */
export class SavedPlanRefused extends PushRefused {
  constructor(message: string, readonly moved: string[]) {
    super(message);
  }
}

const SEGMENTS: readonly string[] = ['tenants', ...TENANT_SEGMENTS];
const ACTIONS: readonly string[] = ['create', 'update', 'delete'];

const sha256 = (text: string): string => hash('sha256', text, 'hex');

/** A resource's state as a plan compared it; undefined for none (a create). */
function stateHash(values: JsonObject | undefined): string | undefined {
  return values === undefined ? undefined : sha256(canonical(values));
}

/** The files of the manifest's entries: never extras, whatever their names. */
function pulledFiles(manifest: Manifest): Set<string> {
  return new Set(manifest.resources.map((entry) => entry.file));
}

/** A hash of each file below the folder a push reads or a plan reports, by path in code-unit order. */
async function folderFileHashes(io: FolderIO, pulled: PulledFiles): Promise<Record<string, string>> {
  const entries = (await io.walk()).filter((entry) => entry.type !== 'folder' && !isFolderExtra(entry.path, pulled));
  const files = entries.filter((entry) => entry.type === 'file').map((entry) => entry.path);
  const texts = new Map(files.map((file, index) => [file, index]));
  const read = await io.readMany(files);
  const hashes: Record<string, string> = {};
  for (const entry of entries) {
    const index = texts.get(entry.path);
    const text = index === undefined ? undefined : read[index];
    // A link or a file that cannot be read is a problem of the plan; here it only needs to be told apart.
    hashes[entry.path] = typeof text === 'string' ? sha256(text) : `${entry.type}${text instanceof Error ? ':unreadable' : ''}`;
  }
  return hashes;
}

function hiddenUrl(baseUrl: string): string {
  return hideUrlPasswords(baseUrl, CREDENTIAL_MASK) as string;
}

/**
 * The plan as a saved plan, with the folder's files as they are now (read right after the plan, so a file edited
 * later is caught). A plan a push would refuse (a conflict or a problem) cannot be saved.
 */
export async function savePlan(plan: Plan, io: FolderIO): Promise<SavedPlan> {
  const conflicts = plan.changes.filter((c) => c.action === 'conflict');
  if (conflicts.length > 0 || plan.problems.length > 0) {
    const held = [conflicts.length > 0 ? plural(conflicts.length, 'conflict') : '', plan.problems.length > 0 ? plural(plan.problems.length, 'problem') : ''].filter(Boolean).join(' and ');
    throw new SavedPlanError(`The plan holds ${held}, which a push would refuse, so it was not saved: resolve them, then plan again.`);
  }
  const changes = plan.changes.map((change): SavedChange => {
    const service = stateHash(change.service);
    return {
      action: change.action as SavedChange['action'], segment: change.segment, ...(change.id === undefined ? {} : { id: change.id }),
      name: change.name, fields: change.fields, file: change.file, ...(service === undefined ? {} : { service }),
    };
  });
  return { baseUrl: hiddenUrl(plan.manifest.baseUrl), tenantId: plan.manifest.tenantId, files: await folderFileHashes(io, pulledFiles(plan.manifest)), changes };
}

/** The saved plan's text: the same plan gives the same bytes (keys in a fixed order, files by path). */
export function formatSavedPlan(saved: SavedPlan): string {
  const { baseUrl, tenantId, files, changes } = saved;
  const sortedFiles = Object.fromEntries(Object.keys(files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((file) => [file, files[file] as string]));
  const ordered = changes.map(({ action, segment, id, name, fields, file, service }) => ({ action, segment, ...(id === undefined ? {} : { id }), name, fields, file, ...(service === undefined ? {} : { service }) }));
  return `${JSON.stringify({ [FORMAT_KEY]: SAVED_PLAN_VERSION, baseUrl, tenantId, changes: ordered, files: sortedFiles }, null, 2)}\n`;
}

function savedChange(value: unknown, index: number, file: string): SavedChange {
  const at = `${file}: changes[${index}]`;
  if (!isJsonObject(value)) throw new SavedPlanError(`${at} must be an object`);
  const { action, segment, id, name, fields, file: changeFile, service } = value;
  if (typeof action !== 'string' || !ACTIONS.includes(action)) throw new SavedPlanError(`${at}.action must be one of ${ACTIONS.join(', ')}`);
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment)) throw new SavedPlanError(`${at}.segment must be one of ${SEGMENTS.join(', ')}`);
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id))) throw new SavedPlanError(`${at}.id must be an integer`);
  if ((id === undefined) !== (action === 'create')) throw new SavedPlanError(`${at}.id must be given for an update or a delete, and left out for a create`);
  if (typeof name !== 'string') throw new SavedPlanError(`${at}.name must be a string`);
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string')) throw new SavedPlanError(`${at}.fields must be a list of field names`);
  if (typeof changeFile !== 'string' || !changeFile.endsWith('.json')) throw new SavedPlanError(`${at}.file must name the resource's .json file`);
  if (service !== undefined && typeof service !== 'string') throw new SavedPlanError(`${at}.service must be a hash`);
  return {
    action: action as SavedChange['action'], segment: segment as Segment, ...(id === undefined ? {} : { id }), name, fields: fields as string[],
    file: changeFile, ...(service === undefined ? {} : { service }),
  };
}

/** A saved plan read back from its text; `file` names it in the errors. */
export function parseSavedPlan(text: string, file: string): SavedPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SavedPlanError(`${file} is not a saved plan: not valid JSON (${error instanceof Error ? error.message : String(error)}); write one with plan --out`);
  }
  if (!isJsonObject(value) || !(FORMAT_KEY in value)) throw new SavedPlanError(`${file} is not a saved plan (it has no "${FORMAT_KEY}"); write one with plan --out`);
  const version = value[FORMAT_KEY];
  if (version !== SAVED_PLAN_VERSION) throw new SavedPlanError(`${file}: ${FORMAT_KEY} is ${JSON.stringify(version)}, but this version reads saved plans of version ${SAVED_PLAN_VERSION}; plan again with this version`);
  const { baseUrl, tenantId, files, changes } = value;
  if (typeof baseUrl !== 'string') throw new SavedPlanError(`${file}: baseUrl must be the service's base URL`);
  if (typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId)) throw new SavedPlanError(`${file}: tenantId must be an integer`);
  if (!isJsonObject(files) || !Object.values(files).every((h) => typeof h === 'string')) throw new SavedPlanError(`${file}: files must map each file of the folder to its hash`);
  if (!Array.isArray(changes)) throw new SavedPlanError(`${file}: changes must be a list`);
  return { baseUrl, tenantId, files: files as Record<string, string>, changes: changes.map((change, index) => savedChange(change, index, file)) };
}

/**
 * Why a saved plan must not be written at `out` (absolute), or undefined when it may: inside the folder any file
 * but a resource's, a README or a dotfile is a problem of every plan, so there it must be a dotfile. `manifest`, when
 * known, names the files pulled, which are resources' whatever their names.
 */
export function savedPlanPlaceProblem(folder: string, out: string, manifest?: Manifest): string | undefined {
  const relative = path.relative(folder, out);
  if (relative === '') return `${out} is the folder itself: give a file outside it (e.g. ${path.join(path.dirname(folder), 'plan.json')})`;
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  if (isFolderExtra(relative.split(path.sep).join('/'), manifest && pulledFiles(manifest))) return undefined;
  return `${out} is inside the folder, where any other file is a problem of the plan: write it outside the folder (e.g. ${path.join(path.dirname(folder), 'plan.json')}) or as a dotfile in it (e.g. ${path.join(folder, '.plan.json')})`;
}

function compare(saved: Record<string, string>, now: Record<string, string>): string[] {
  const moved: string[] = [];
  for (const file of Object.keys(now)) {
    if (!(file in saved)) moved.push(`${file} added`);
    else if (saved[file] !== now[file]) moved.push(`${file} edited`);
  }
  for (const file of Object.keys(saved)) if (!(file in now)) moved.push(`${file} removed`);
  return moved.sort();
}

function label(change: Pick<SavedChange, 'segment' | 'id' | 'name' | 'file'>): string {
  return `${change.file} (${change.segment}${change.id === undefined ? '' : ` ${change.id}`} "${change.name}")`;
}

function summary(change: { action: string; fields: readonly string[] }): string {
  return `${change.action}${change.fields.length > 0 ? ` of ${change.fields.join(', ')}` : ''}`;
}

/** What differs between the saved plan's changes and the plan made now, each naming the resource. */
function movedOnService(saved: readonly SavedChange[], plan: Plan): string[] {
  const now = new Map(plan.changes.map((change) => [change.file, change]));
  const moved: string[] = [];
  for (const change of saved) {
    const current = now.get(change.file);
    if (!current) moved.push(`${label(change)}: ${change.action === 'delete' ? 'already deleted on the service since the plan was made' : 'no longer in the plan'}`);
    else if (current.action === 'conflict') moved.push(`${label(change)}: ${current.reason ?? 'a conflict'}`);
    else if (stateHash(current.service) !== change.service) moved.push(`${label(change)}: changed on the service since the plan was made`);
    else if (summary(current) !== summary(change) || current.id !== change.id) moved.push(`${label(change)}: the plan now holds ${summary(current)}, not ${summary(change)}`);
  }
  const savedFiles = new Set(saved.map((change) => change.file));
  for (const change of plan.changes) if (!savedFiles.has(change.file)) moved.push(`${label(change)}: ${summary(change)} is not in the saved plan`);
  if (moved.length === 0 && plan.changes.some((change, index) => change.file !== saved[index]?.file)) moved.push('the changes would be sent in another order than saved');
  return moved;
}

export interface VerifyOptions {
  /** The saved plan's path, for the messages. */
  file: string;
  signal?: AbortSignal;
  concurrency?: number;
  loaded?: LoadedManifest;
}

/**
 * The plan to push for a saved plan: checked against the folder's files (before any request) and against the
 * service's state of every resource it touches (read at the given concurrency). Resources it does not touch may
 * have changed. Throws SavedPlanRefused naming what moved; the plan returned holds exactly the saved changes, in
 * their order.
 */
export async function verifySavedPlan(client: ServiceClient, io: FolderIO, saved: SavedPlan, options: VerifyOptions): Promise<Plan> {
  const { file } = options;
  const loaded = options.loaded ?? await loadManifest(io);
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  if (saved.tenantId !== manifest.tenantId || !sameBaseUrl(saved.baseUrl, hiddenUrl(manifest.baseUrl))) {
    throw new SavedPlanError(`${file} is a plan of tenant ${saved.tenantId} of ${saved.baseUrl}, but the folder holds tenant ${manifest.tenantId} of ${hiddenUrl(manifest.baseUrl)}: push it with the folder it was made of`);
  }
  const files = compare(saved.files, await folderFileHashes(io, pulledFiles(manifest)));
  const again = 'review what moved, plan again and push the new plan';
  if (files.length > 0) {
    throw new SavedPlanRefused(`Nothing was sent: the folder changed since ${file} was made (${files.join('; ')}); ${again}.`, files);
  }
  const plan = await planPush(client, io, { signal: options.signal, concurrency: options.concurrency, loaded });
  const moved = movedOnService(saved.changes, plan);
  if (moved.length > 0) {
    throw new SavedPlanRefused(`Nothing was sent: the service changed since ${file} was made (${moved.join('; ')}); pull to see the service's state, then ${again}.`, moved);
  }
  if (plan.problems.length > 0) throw new SavedPlanRefused(`Nothing was sent: ${plan.problems.join('; ')}`, plan.problems);
  return plan;
}
