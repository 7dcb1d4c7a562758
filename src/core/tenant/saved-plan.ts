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
 *
 * Its file carries a digest of its own content, and is read strictly: a file that is not exactly what was saved (a
 * change listed twice, a name edited, a key added or left out) is refused as altered before anything else is looked
 * at, so a push never sends a plan that differs from the one reviewed, and never blames the folder or the service for
 * an edit of the plan. The digest has no secret: it catches an edit by hand or a damaged file, not a forger who
 * computes it again.
 */
import path from 'node:path';
import { canonical, isJsonObject, own, type JsonObject } from '../json';
import { TENANT_SEGMENTS } from '../resources';
import type { Segment } from '../resource-kind';
import { withoutBom } from '../text';
import type { FolderIO } from './folder-io';
import { folderFileHashes, hiddenUrl, pulledFiles, sha256, stateHash } from './saved-plan-state';
import { isFolderExtra } from './folder-layout';
import type { Manifest } from './manifest';
import type { Plan } from './plan';
import { planVerdict } from './plan-verdict';
import { PushRefused } from './push-refused';

/** The format's version: a saved plan of another version is refused rather than read wrongly. 2: with a digest. */
export const SAVED_PLAN_VERSION = 2;
/** The version before digests: what such a file held when it was reviewed cannot be told. */
const UNSEALED_VERSION = 1;
/** The key that marks a JSON file as a saved plan, holding its version. */
const FORMAT_KEY = 'convaiSavedPlan';
/** The key holding the SHA-256 of the canonical JSON of every other key of the file. */
const DIGEST_KEY = 'digest';
/** Every key a saved plan's file holds, and every key a change in it may hold: any other is an edit. */
const PLAN_KEYS: readonly string[] = [FORMAT_KEY, DIGEST_KEY, 'baseUrl', 'tenantId', 'changes', 'files'];
const CHANGE_KEYS: readonly string[] = ['action', 'segment', 'id', 'name', 'fields', 'file', 'service'];
const SHA256_HEX = /^[0-9a-f]{64}$/;

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

/**
 * The saved plan's file is not what was saved (edited by hand, or damaged): nothing was sent. A refusal of the push,
 * as when the folder moved, but naming the plan's file, since neither the folder nor the service is the cause.
 */
export class SavedPlanAltered extends PushRefused {
  constructor(
    file: string,
    readonly reason: string,
  ) {
    super(
      `Nothing was sent: ${file} was altered after it was saved (${reason}), so it is not the plan that was reviewed; save the plan again, review it and push that one.`,
    );
  }
}

/** The folder's files or the service's state moved since the plan was saved: nothing was sent. */
export class SavedPlanRefused extends PushRefused {
  constructor(
    message: string,
    readonly moved: string[],
  ) {
    super(message);
  }
}

const SEGMENTS: readonly string[] = ['tenants', ...TENANT_SEGMENTS];
const ACTIONS: readonly string[] = ['create', 'update', 'delete'];

/**
 * The plan as a saved plan, with the folder's files as they are now (read right after the plan, so a file edited
 * later is caught). A plan a push would refuse (a conflict or a problem) cannot be saved.
 */
export async function savePlan(plan: Plan, io: FolderIO): Promise<SavedPlan> {
  const verdict = planVerdict(plan, 'so it was not saved');
  if (!verdict.pushable) throw new SavedPlanError(verdict.sentence);
  const changes = plan.changes.map((change): SavedChange => {
    const service = stateHash(change.service);
    return {
      action: change.action as SavedChange['action'],
      segment: change.segment,
      ...(change.id === undefined ? {} : { id: change.id }),
      name: change.name,
      fields: change.fields,
      file: change.file,
      ...(service === undefined ? {} : { service }),
    };
  });
  return {
    baseUrl: hiddenUrl(plan.manifest.baseUrl),
    tenantId: plan.manifest.tenantId,
    files: await folderFileHashes(io, pulledFiles(plan.manifest)),
    changes,
  };
}

/** The digest of a saved plan's file: of its content without the digest, as canonical JSON (no layout, no key order). */
function digestOf(content: JsonObject): string {
  return sha256(canonical(Object.fromEntries(Object.entries(content).filter(([key]) => key !== DIGEST_KEY))));
}

/** The saved plan's text: the same plan gives the same bytes (keys in a fixed order, files by path), its digest second. */
export function formatSavedPlan(saved: SavedPlan): string {
  const { baseUrl, tenantId, files, changes } = saved;
  const sortedFiles = Object.fromEntries(
    Object.keys(files)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((file) => [file, files[file] as string]),
  );
  const ordered = changes.map(({ action, segment, id, name, fields, file, service }) => ({
    action,
    segment,
    ...(id === undefined ? {} : { id }),
    name,
    fields,
    file,
    ...(service === undefined ? {} : { service }),
  }));
  const content: JsonObject = { baseUrl, tenantId, changes: ordered, files: sortedFiles };
  return `${JSON.stringify({ [FORMAT_KEY]: SAVED_PLAN_VERSION, [DIGEST_KEY]: digestOf({ [FORMAT_KEY]: SAVED_PLAN_VERSION, ...content }), ...content }, null, 2)}\n`;
}

/** Keys of `value` a saved plan's file never holds there, in the file's order. */
function unknownKeys(value: JsonObject, known: readonly string[]): string {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => JSON.stringify(key))
    .join(', ');
}

/** A change as saved; throws why the file is not what was saved, naming the field. */
function savedChange(value: unknown, index: number, file: string): SavedChange {
  const at = `changes[${index}]`;
  const altered = (reason: string): SavedPlanAltered => new SavedPlanAltered(file, reason);
  if (!isJsonObject(value)) throw altered(`${at} must be an object`);
  const unknown = unknownKeys(value, CHANGE_KEYS);
  if (unknown !== '') throw altered(`${at} holds ${unknown}, which a saved change does not`);
  const { action, segment, id, name, fields, file: changeFile, service } = value;
  if (typeof action !== 'string' || !ACTIONS.includes(action))
    throw altered(`${at}.action must be one of ${ACTIONS.join(', ')}`);
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment))
    throw altered(`${at}.segment must be one of ${SEGMENTS.join(', ')}`);
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id)))
    throw altered(`${at}.id must be an integer`);
  if ((id === undefined) !== (action === 'create'))
    throw altered(`${at}.id must be given for an update or a delete, and left out for a create`);
  if (typeof name !== 'string') throw altered(`${at}.name must be a string`);
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string'))
    throw altered(`${at}.fields must be a list of field names`);
  const twice = fields.find((field, i) => fields.indexOf(field) !== i);
  if (twice !== undefined) throw altered(`${at}.fields lists ${JSON.stringify(twice)} twice`);
  if (typeof changeFile !== 'string' || !changeFile.endsWith('.json'))
    throw altered(`${at}.file must name the resource's .json file`);
  if (service !== undefined && (typeof service !== 'string' || !SHA256_HEX.test(service)))
    throw altered(`${at}.service must be a SHA-256 hash in hex`);
  if ((service === undefined) !== (action === 'create'))
    throw altered(`${at}.service must be given for an update or a delete, and left out for a create`);
  return {
    action: action as SavedChange['action'],
    segment: segment as Segment,
    ...(id === undefined ? {} : { id }),
    name,
    fields: fields as string[],
    file: changeFile,
    ...(service === undefined ? {} : { service }),
  };
}

/** A change of the list that an earlier one already makes (the same file, or the same resource), named by both. */
function listedTwice(changes: readonly SavedChange[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [index, change] of changes.entries()) {
    for (const what of [change.file, ...(change.id === undefined ? [] : [`${change.segment} ${change.id}`])]) {
      const earlier = seen.get(what);
      if (earlier !== undefined) return `changes[${index}] lists ${what} again, as changes[${earlier}] does`;
      seen.set(what, index);
    }
  }
  return undefined;
}

/** The plan a file of this version holds; throws why the file is not what was saved, naming the field. */
function sealedPlan(value: JsonObject, file: string): SavedPlan {
  const altered = (reason: string): SavedPlanAltered => new SavedPlanAltered(file, reason);
  const unknown = unknownKeys(value, PLAN_KEYS);
  if (unknown !== '') throw altered(`it holds ${unknown}, which a saved plan does not`);
  const digest = own(value, DIGEST_KEY);
  if (digest === undefined) throw altered(`it has no "${DIGEST_KEY}"`);
  if (typeof digest !== 'string' || !SHA256_HEX.test(digest))
    throw altered(`"${DIGEST_KEY}" must be a SHA-256 hash in hex`);
  const { baseUrl, tenantId, files, changes } = value;
  if (typeof baseUrl !== 'string') throw altered("baseUrl must be the service's base URL");
  if (typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId)) throw altered('tenantId must be an integer');
  if (!isJsonObject(files) || !Object.values(files).every((h) => typeof h === 'string'))
    throw altered('files must map each file of the folder to its hash');
  if (!Array.isArray(changes)) throw altered('changes must be a list');
  const saved = {
    baseUrl,
    tenantId,
    files: files as Record<string, string>,
    changes: changes.map((change, index) => savedChange(change, index, file)),
  };
  const twice = listedTwice(saved.changes);
  if (twice !== undefined) throw altered(twice);
  if (digestOf(value) !== digest)
    throw altered(`its content does not match its "${DIGEST_KEY}": a value in it was edited`);
  return saved;
}

/**
 * A saved plan read back from its text (a byte-order mark aside); `file` names it in the errors. A file that is no
 * saved plan of this version is a SavedPlanError; one that is, but not as it was saved, a SavedPlanAltered.
 */
export function parseSavedPlan(text: string, file: string): SavedPlan {
  let value: unknown;
  try {
    value = JSON.parse(withoutBom(text));
  } catch (error) {
    throw new SavedPlanError(
      `${file} is not a saved plan: not valid JSON (${error instanceof Error ? error.message : String(error)}); write one with plan --out`,
    );
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, FORMAT_KEY))
    throw new SavedPlanError(`${file} is not a saved plan (it has no "${FORMAT_KEY}"); write one with plan --out`);
  const version = value[FORMAT_KEY];
  if (version === UNSEALED_VERSION) {
    throw new SavedPlanError(
      `${file} was saved by an earlier version, without the digest that shows it is the plan as saved, so what was reviewed cannot be told from it; save the plan again with this version (plan --out), review it and push that one`,
    );
  }
  if (version !== SAVED_PLAN_VERSION)
    throw new SavedPlanError(
      `${file}: ${FORMAT_KEY} is ${JSON.stringify(version)}, but this version reads saved plans of version ${SAVED_PLAN_VERSION}; plan again with this version`,
    );
  return sealedPlan(value, file);
}

/**
 * Why a saved plan must not be written at `out` (absolute), or undefined when it may: inside the folder any file
 * but a resource's, a README or a dotfile is a problem of every plan, so there it must be a dotfile. `manifest`, when
 * known, names the files pulled, which are resources' whatever their names.
 */
export function savedPlanPlaceProblem(folder: string, out: string, manifest?: Manifest): string | undefined {
  const relative = path.relative(folder, out);
  if (relative === '')
    return `${out} is the folder itself: give a file outside it (e.g. ${path.join(path.dirname(folder), 'plan.json')})`;
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  if (isFolderExtra(relative.split(path.sep).join('/'), manifest && pulledFiles(manifest))) return undefined;
  return `${out} is inside the folder, where any other file is a problem of the plan: write it outside the folder (e.g. ${path.join(path.dirname(folder), 'plan.json')}) or as a dotfile in it (e.g. ${path.join(folder, '.plan.json')})`;
}
