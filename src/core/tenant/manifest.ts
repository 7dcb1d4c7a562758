/**
 * `convai-tenant.json`: where a folder's resources came from (connection,
 * base URL, tenant) and, for each, its file and a hash per field of the state
 * it was pulled from, which the plan compares with the folder and the service.
 */
import { formatDocument, parseDocument } from '../json-document';
import { TENANT_SEGMENTS, type Segment } from '../resources';
import type { FolderIO } from './folder-io';

export const MANIFEST_FILE = 'convai-tenant.json';
/** The tenant's own file, beside the kinds' folders. */
export const TENANT_BASE = 'tenant';

export interface PulledResource {
  segment: Segment;
  id: number;
  /** The resource's JSON file, relative to the folder: `ai_prompts/order-triage.json`. */
  file: string;
  name: string;
  /** A hash per field of the pulled state (representation.ts: fieldHashes). */
  fields: Record<string, string>;
}

export interface Manifest {
  connection: string;
  baseUrl: string;
  tenantId: number;
  resources: PulledResource[];
}

export class ManifestError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SEGMENTS: readonly string[] = ['tenants', ...TENANT_SEGMENTS];

function pulledResource(value: unknown, index: number): PulledResource {
  const at = `resources[${index}]`;
  if (!isRecord(value)) throw new ManifestError(`${MANIFEST_FILE}: ${at} must be an object`);
  const { segment, id, file, name, fields } = value;
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment)) throw new ManifestError(`${MANIFEST_FILE}: ${at}.segment must be one of ${SEGMENTS.join(', ')}`);
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new ManifestError(`${MANIFEST_FILE}: ${at}.id must be an integer`);
  if (typeof file !== 'string' || !file.endsWith('.json')) throw new ManifestError(`${MANIFEST_FILE}: ${at}.file must name the resource's .json file`);
  if (!isRecord(fields) || !Object.values(fields).every((h) => typeof h === 'string')) throw new ManifestError(`${MANIFEST_FILE}: ${at}.fields must map field names to hashes`);
  return { segment: segment as Segment, id, file, name: typeof name === 'string' ? name : `#${id}`, fields: fields as Record<string, string> };
}

/** The folder's manifest; undefined when the folder was never pulled into. */
export async function readManifest(io: FolderIO): Promise<Manifest | undefined> {
  const text = await io.read(MANIFEST_FILE);
  if (text === undefined) return undefined;
  const { value, syntaxProblems } = parseDocument(text);
  if (syntaxProblems.length > 0 || !isRecord(value)) throw new ManifestError(`${MANIFEST_FILE} is not valid JSON; pull the tenant again into a new folder`);
  const { connection, baseUrl, tenantId, resources } = value;
  if (typeof connection !== 'string' || typeof baseUrl !== 'string' || typeof tenantId !== 'number' || !Array.isArray(resources)) {
    throw new ManifestError(`${MANIFEST_FILE} must hold connection, baseUrl, tenantId and resources; pull the tenant again into a new folder`);
  }
  return { connection, baseUrl, tenantId, resources: resources.map(pulledResource) };
}

export async function writeManifest(io: FolderIO, manifest: Manifest): Promise<void> {
  const resources = [...manifest.resources].sort((a, b) => a.file.localeCompare(b.file));
  await io.write(MANIFEST_FILE, formatDocument({ ...manifest, resources }));
}

/** A file name a person finds the resource by: `Order Triage` → `order-triage`. */
export function slug(name: string): string {
  const text = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return text.slice(0, 60).replace(/-+$/, '');
}

/**
 * The base (file without `.json`) of a resource in the folder: the name it had
 * there before, else its name's slug, made unique with its id.
 */
export function resourceBase(segment: Segment, id: number, name: string, previous: string | undefined, taken: ReadonlySet<string>): string {
  if (previous !== undefined) return previous.replace(/\.json$/, '');
  if (segment === 'tenants') return TENANT_BASE;
  const stem = slug(name) || `${segment.replace(/s$/, '')}-${id}`;
  const base = `${segment}/${stem}`;
  return taken.has(base) ? `${base}-${id}` : base;
}
