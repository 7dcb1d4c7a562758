/**
 * What every entry of a tenant folder is. The contract: every file and folder
 * below it is a resource file, a text part of one, the manifest, or an
 * allowed extra (`README*`, dotfiles and dot-folders); anything else is a
 * problem naming it and, where there is one, the nearest valid name, so
 * nothing a person puts in the folder is silently ignored. A file the
 * manifest lists as pulled is never an extra, whatever its name.
 */
import { closest } from '../closest-name';
import { repeatedBy } from '../repeated';
import { isPromptTextField, PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import { isTenantSegment, TENANT_SEGMENTS } from '../resources';
import type { Segment, TenantSegment } from '../resource-kind';
import type { FolderEntry } from './folder-io';
import { foldedName, isExtraName, unsafePath } from './folder-paths';
import { MANIFEST_FILE, TENANT_BASE } from './manifest';

/** `path` is relative to the folder; a folder's ends in `/`. `message` starts with the path. */
export interface LayoutProblem {
  path: string;
  message: string;
}

/** A resource's files: `<base>.json` (`file`) and a `<base>.<field>.md` for each of `parts`. */
export interface ResourceFileSet {
  segment: Segment;
  base: string;
  /** The JSON file's path, the walk's own text: a scan looks 65,000 of them up in maps, each hashed once. */
  file: string;
  parts: PromptTextField[];
}

/** The files a manifest lists as pulled (its entries' `file`), as a set or a map by file holds them. */
export interface PulledFiles {
  has(file: string): boolean;
}

export interface FolderLayout {
  /** The tenant first, then the kinds in TENANT_SEGMENTS order, each by base. */
  resources: ResourceFileSet[];
  /** Sorted by path. */
  problems: LayoutProblem[];
}

const TENANT_FILE = `${TENANT_BASE}.json`;
const TEXTS_KIND: TenantSegment = 'ai_prompts';
const KIND_FOLDERS = TENANT_SEGMENTS.map((segment) => `${segment}/`).join(', ');
const EXTRAS = 'a README or a dotfile may be kept there';

type Verdict =
  | { problem: string }
  | { resource: Segment; base: string }
  | { part: string; stem: string; field: PromptTextField }
  | 'allowed';

/** The kind a folder name was meant as: another case, a singular, without `ai_`, or a typo. */
function kindMeant(name: string): TenantSegment | undefined {
  const loose = (text: string): string => text.replace(/^ai[ _-]?/, '').replace(/s$/, '');
  const folded = foldedName(name);
  const typo = closest(folded, [...TENANT_SEGMENTS]);
  return (
    TENANT_SEGMENTS.find((segment) => segment === folded || loose(segment) === loose(folded)) ??
    TENANT_SEGMENTS.find((segment) => segment === typo)
  );
}

function didYouMean(name: string | undefined): string {
  return name === undefined ? '' : `; did you mean "${name}"?`;
}

function rootVerdict(entry: FolderEntry, name: string): Verdict {
  if (entry.type === 'folder') {
    if (isTenantSegment(name)) return 'allowed';
    const kind = kindMeant(name);
    return {
      problem: `no kind of that name${kind ? didYouMean(`${kind}/`) : `; resources go in ${TENANT_FILE} and the kinds' folders (${KIND_FOLDERS}); ${EXTRAS}`}`,
    };
  }
  if (name === MANIFEST_FILE) return 'allowed';
  if (name === TENANT_FILE) return { resource: 'tenants', base: TENANT_BASE };
  const file = closest(foldedName(name), [MANIFEST_FILE, TENANT_FILE]);
  if (file) return { problem: `not part of a tenant folder${didYouMean(file)}` };
  const kind = kindMeant(name.replace(/\.[^.]*$/, ''));
  if (kind) return { problem: `a file where a kind's folder belongs; resource files go in ${kind}/` };
  return {
    problem: `not part of a tenant folder; resource files go in the kinds' folders (${KIND_FOLDERS}), the tenant's in ${TENANT_FILE}; ${EXTRAS}`,
  };
}

/** A file in a kind's folder: `<stem>.json`, or in ai_prompts `<prompt>.<field>.md`. */
/** `name` split at its last dot (none, or only a leading one: no extension). */
function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [name, ''];
}

function kindFileVerdict(segment: TenantSegment, name: string): Verdict {
  const [stem, extension] = splitExtension(name);
  if (extension === 'json') return { resource: segment, base: `${segment}/${stem}` };
  if (extension !== 'md' && foldedName(extension) !== 'md') {
    const json = closest(foldedName(extension), ['json']);
    return { problem: `resource files end in ".json"${json ? didYouMean(`${stem}.json`) : `; ${EXTRAS}`}` };
  }
  if (segment !== TEXTS_KIND)
    return { problem: `only prompts have text files; resource files end in ".json"; ${EXTRAS}` };
  const [prompt, field] = splitExtension(stem);
  if (extension === 'md' && isPromptTextField(field)) return { part: `${segment}/${name}`, stem: prompt, field };
  const meant = closest(foldedName(field), [...PROMPT_TEXT_FIELDS]);
  if (meant) return { problem: `not a prompt's text file${didYouMean(`${prompt}.${meant}.md`)}` };
  return {
    problem: `not a prompt's text file; those are named after the prompt's file and the text, such as "${prompt}.system.md" (${PROMPT_TEXT_FIELDS.join(', ')}); ${EXTRAS}`,
  };
}

function kindVerdict(entry: FolderEntry, segment: TenantSegment, name: string): Verdict {
  if (entry.type === 'folder')
    return { problem: `a kind's folder holds no sub-folders; its resource files go directly in ${segment}/` };
  return kindFileVerdict(segment, name);
}

/**
 * The names a pull writes (`order-triage.json`, `order-triage.system.md`): lower-case letters, digits, - and _, no
 * device name, no README. They are nearly all of a large folder's entries, so they are told apart without the general
 * rules below, which give them the same verdict.
 */
const PULLED_NAME =
  /^(?!(?:con|prn|aux|nul|com|lpt|readme))([a-z0-9_][a-z0-9_-]*?)(?:\.(user_prompt|system|assistant)\.md|\.json)$/;

function pulledNameVerdict(entry: FolderEntry, folder: TenantSegment, name: string): Verdict | undefined {
  if (entry.type !== 'file') return undefined;
  const match = PULLED_NAME.exec(name);
  if (!match) return undefined;
  const [, stem = '', field] = match;
  if (field === undefined) return { resource: folder, base: `${folder}/${stem}` };
  return folder === TEXTS_KIND ? { part: `${folder}/${name}`, stem, field: field as PromptTextField } : undefined;
}

function verdict(entry: FolderEntry, folder: string, name: string, pulledFiles: PulledFiles | undefined): Verdict {
  const pulled = isTenantSegment(folder) ? pulledNameVerdict(entry, folder, name) : undefined;
  if (pulled) return pulled;
  if (name.startsWith('.') && isFolderExtra(entry.path, pulledFiles)) return 'allowed';
  if (entry.type === 'link')
    return { problem: 'a symbolic link; a tenant folder holds none, so nothing is read through it' };
  if (entry.type === 'other')
    return {
      problem: 'neither a file nor a folder (a pipe, socket or device); a tenant folder holds only files and folders',
    };
  const unsafe = unsafePath(entry.path);
  if (unsafe) {
    // Windows drops a trailing dot or space, so the name without them is the one meant.
    const trimmed = name.replace(/[. ]+$/, '');
    const meant =
      trimmed !== name && unsafePath(trimmed) === undefined
        ? `${trimmed}${entry.type === 'folder' ? '/' : ''}`
        : undefined;
    return { problem: `${unsafe}${didYouMean(meant)}` };
  }
  if (entry.type === 'file' && isFolderExtra(entry.path, pulledFiles)) return 'allowed';
  return isTenantSegment(folder) ? kindVerdict(entry, folder, name) : rootVerdict(entry, name);
}

const TEXT_PART = new RegExp(`^(${TEXTS_KIND}/.+)\\.(?:${PROMPT_TEXT_FIELDS.join('|')})\\.md$`);

/** Whether the manifest lists the file as pulled, or it is a text part of a prompt's file it lists. */
function listedAsPulled(file: string, pulled: PulledFiles): boolean {
  if (pulled.has(file)) return true;
  const part = TEXT_PART.exec(file);
  return part !== null && pulled.has(`${part[1] as string}.json`);
}

/**
 * Whether a path (relative to the folder, `/`-separated) is the person's own, which no plan or push reads: a README,
 * a dotfile or anything in a dot-folder (contract: allowed extras). A file the manifest lists as pulled, or a text part
 * of one, never is, whatever its name: a folder an older version pulled may hold `ai_prompts/readme-guide.json`,
 * and a plan that passed it over would delete "README Guide".
 */
export function isFolderExtra(file: string, pulled: PulledFiles | undefined): boolean {
  const segments = file.split('/');
  const name = segments.pop() ?? '';
  const extra = isExtraName(name) || segments.some((segment) => segment.startsWith('.'));
  return extra && !(pulled !== undefined && listedAsPulled(file, pulled));
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shown(entry: FolderEntry): string {
  return entry.type === 'folder' ? `${entry.path}/` : entry.path;
}

/** Problems for entries that a case-insensitive (Windows) or normalising (macOS) file system takes for one. */
function sameNameProblems(entries: FolderEntry[]): LayoutProblem[] {
  // Two entries are one only where one of them changes when folded: those (nearly always none) are grouped, not all
  // 165,000 entries of a large folder.
  const folded = entries.map((entry) => foldedName(entry.path));
  const changed = new Set(folded.filter((name, index) => name !== entries[index]?.path));
  if (changed.size === 0) return [];
  const candidates = entries.filter((_, index) => changed.has(folded[index] as string));
  return repeatedBy(candidates, (entry) => foldedName(entry.path)).map(([first, ...others]) => {
    const path = shown(first as FolderEntry);
    return {
      path,
      message: `${path}: would be one file with ${others.map((other) => `"${shown(other)}"`).join(' and ')} on Windows and macOS; rename one`,
    };
  });
}

const SEGMENT_RANK = new Map<Segment, number>(
  (['tenants', ...TENANT_SEGMENTS] as const).map((segment, rank) => [segment, rank]),
);

/** `pulled`: the manifest's files, which are resources' files whatever their names (isFolderExtra). */
export function folderLayout(entries: readonly FolderEntry[], pulled?: PulledFiles): FolderLayout {
  const problems: LayoutProblem[] = [];
  const resources = new Map<string, ResourceFileSet>();
  const parts: Array<{ path: string; base: string; stem: string; field: PromptTextField }> = [];
  const judged: FolderEntry[] = [];
  for (const entry of entries) {
    const slash = entry.path.lastIndexOf('/');
    const name = entry.path.slice(slash + 1);
    const folder = slash < 0 ? '' : entry.path.slice(0, slash);
    // Only the root and the kinds' folders are looked into; what lies deeper is in a folder judged already.
    if (folder !== '' && !isTenantSegment(folder)) continue;
    judged.push(entry);
    const result = verdict(entry, folder, name, pulled);
    if (result === 'allowed') continue;
    if ('problem' in result) problems.push({ path: shown(entry), message: `${shown(entry)}: ${result.problem}` });
    else if ('resource' in result)
      resources.set(result.base, { segment: result.resource, base: result.base, file: entry.path, parts: [] });
    else parts.push({ path: result.part, base: `${folder}/${result.stem}`, stem: result.stem, field: result.field });
  }
  let byFoldedBase: Map<string, ResourceFileSet> | undefined;
  for (const part of parts) {
    const resource = resources.get(part.base);
    if (resource) {
      resource.parts.push(part.field);
      continue;
    }
    byFoldedBase ??= new Map([...resources.values()].map((r) => [foldedName(r.base), r]));
    const other = byFoldedBase.get(foldedName(part.base));
    const renamed = other && `${other.base.slice(other.base.indexOf('/') + 1)}.${part.field}.md`;
    problems.push({
      path: part.path,
      message: `${part.path}: a text of "${part.stem}.json", which is missing${renamed ? didYouMean(renamed) : '; restore that file or remove this one'}`,
    });
  }
  problems.push(...sameNameProblems(judged));
  for (const resource of resources.values())
    if (resource.parts.length > 1)
      resource.parts.sort((a, b) => PROMPT_TEXT_FIELDS.indexOf(a) - PROMPT_TEXT_FIELDS.indexOf(b));
  return {
    resources: [...resources.values()].sort(
      (a, b) => (SEGMENT_RANK.get(a.segment) ?? 0) - (SEGMENT_RANK.get(b.segment) ?? 0) || byText(a.base, b.base),
    ),
    problems: problems.sort((a, b) => byText(a.path, b.path) || byText(a.message, b.message)),
  };
}
