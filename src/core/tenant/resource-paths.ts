/**
 * Where a resource's files go in a tenant folder: a base path a person finds
 * the resource by (its name's slug), unique among the folder's files whatever
 * the file system's case rules, and never a name Windows or VS Code takes for
 * something else.
 */
import type { Segment } from '../resource-kind';
import { foldedName, isDeviceName, isExtraName } from './folder-paths';
import { MANIFEST_FILE, TENANT_BASE, type PulledResource } from './manifest';

/** A file name a person finds the resource by: `Order Triage` → `order-triage`. */
export function slug(name: string): string {
  const text = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
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
export function resourceBase(
  segment: Segment,
  id: number,
  name: string,
  previous: string | undefined,
  taken: ReadonlySet<string>,
): string {
  if (previous !== undefined) return previous.replace(/\.json$/, '');
  if (segment === 'tenants') return TENANT_BASE;
  const slugged = slug(name);
  const stem = slugged === '' ? `${segment.replace(/s$/, '')}-${id}` : fileStem(slugged, id);
  const base = `${segment}/${stem}`;
  return taken.has(foldedName(base)) ? `${base}-${id}` : base;
}
