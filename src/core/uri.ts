/**
 * The `convai:` URI layout of the extension contract. Every URI is made by
 * `toResourcePath` and read by `parseResourcePath`, here and nowhere else.
 * The core works on authority and path strings; the glue wraps them in `vscode.Uri`.
 */
import { isTenantSegment, kindOfSegment } from './resources';
import type { TenantSegment } from './resource-kind';

export const SCHEME = 'convai';

/** A prompt's fields that open as documents of their own (contract: "Prompt parts"). */
export type PromptPart = 'system' | 'user_prompt' | 'assistant' | 'function_defs' | 'settings';
export const PROMPT_PARTS: readonly PromptPart[] = ['system', 'user_prompt', 'assistant', 'function_defs', 'settings'];
const PART_FILES: Readonly<Record<PromptPart, string>> = {
  system: 'system.md',
  user_prompt: 'user_prompt.md',
  assistant: 'assistant.md',
  function_defs: 'function_defs.json',
  settings: 'settings.json',
};

/** The resources whose texts open as parts, under `<segment>/<id>/`. */
export type PartsSegment = 'ai_prompts' | 'agents';

interface At {
  connection: string;
}
interface InTenant extends At {
  tenantId: number;
}

export type ResourceLocation =
  | ({ type: 'root' } & At)
  | ({ type: 'tenants' } & At)
  | ({ type: 'tenant' } & InTenant)
  | ({ type: 'tenantFolder' } & InTenant)
  | ({ type: 'kindFolder'; segment: TenantSegment } & InTenant)
  | ({ type: 'resource'; segment: TenantSegment; id: number } & InTenant)
  /** The folder of a prompt's parts, or of an agent (which holds `prompts/`). */
  | ({ type: 'partsFolder'; segment: PartsSegment; id: number } & InTenant)
  | ({ type: 'agentPromptsFolder'; segment: 'agents'; id: number } & InTenant)
  | ({ type: 'part'; segment: 'ai_prompts'; id: number; part: PromptPart } & InTenant)
  /**
   * The `prompt` text of one element of an agent's `configuration.prompt`, named
   * by the element's name: the name is what an update matches elements by (section 2.5).
   */
  | ({ type: 'agentPrompt'; segment: 'agents'; id: number; element: string } & InTenant);

export type FileLocation = Extract<ResourceLocation, { type: 'tenant' | 'resource' | 'part' | 'agentPrompt' }>;
/** A document of one field (or one element's text) of a resource, beside the resource's whole document. */
export type PartLocation = Extract<FileLocation, { type: 'part' | 'agentPrompt' }>;
/** The whole document of a resource: what a part belongs to. */
export type WholeLocation = Extract<FileLocation, { type: 'tenant' | 'resource' }>;

export const CONNECTION_NAME = /^[a-z0-9-]{1,40}$/;

export function isFile(location: ResourceLocation): location is FileLocation {
  return (
    location.type === 'tenant' ||
    location.type === 'resource' ||
    location.type === 'part' ||
    location.type === 'agentPrompt'
  );
}

export function isPart(location: ResourceLocation): location is PartLocation {
  return location.type === 'part' || location.type === 'agentPrompt';
}

/** The whole resource a document shows (itself for a whole document). */
export function wholeOf(location: FileLocation): WholeLocation {
  if (location.type === 'tenant' || location.type === 'resource') return location;
  const { connection, tenantId, segment, id } = location;
  return { type: 'resource', connection, tenantId, segment, id };
}

/** Whether an agent element's name can be a file name (it becomes one path segment). */
export function isElementFileName(name: string): boolean {
  return name !== '' && !name.includes('/') && name !== '.' && name !== '..';
}

/** The path part of a location's URI (the authority is the connection name); segments are not encoded. */
export function toResourcePath(location: ResourceLocation): string {
  switch (location.type) {
    case 'root':
      return '/';
    case 'tenants':
      return '/tenants/';
    case 'tenant':
      return `/tenants/${location.tenantId}.json`;
    case 'tenantFolder':
      return `/tenants/${location.tenantId}/`;
    case 'kindFolder':
      return `/tenants/${location.tenantId}/${location.segment}/`;
    case 'resource':
      return `/tenants/${location.tenantId}/${location.segment}/${location.id}.json`;
    case 'partsFolder':
      return `/tenants/${location.tenantId}/${location.segment}/${location.id}/`;
    case 'agentPromptsFolder':
      return `/tenants/${location.tenantId}/agents/${location.id}/prompts/`;
    case 'part':
      return `/tenants/${location.tenantId}/ai_prompts/${location.id}/${PART_FILES[location.part]}`;
    case 'agentPrompt':
      return `/tenants/${location.tenantId}/agents/${location.id}/prompts/${location.element}.md`;
  }
}

/** The whole URI as text, each path segment percent-encoded (an agent element's name may hold spaces). */
export function toResourceUriString(location: ResourceLocation): string {
  const path = toResourcePath(location).split('/').map(encodeURIComponent).join('/');
  return `${SCHEME}://${location.connection}${path}`;
}

const ID = /^(0|[1-9]\d{0,15})$/;

function id(text: string | undefined): number | undefined {
  return text !== undefined && ID.test(text) ? Number(text) : undefined;
}

function jsonId(name: string | undefined): number | undefined {
  return name?.endsWith('.json') ? id(name.slice(0, -'.json'.length)) : undefined;
}

const PART_BY_FILE = new Map(Object.entries(PART_FILES).map(([part, file]) => [file, part as PromptPart]));

/** What lies below `<segment>/<id>/`: a prompt's parts, an agent's element texts. */
function partLocation(
  at: InTenant,
  segment: TenantSegment,
  resourceId: number,
  rest: string[],
): ResourceLocation | undefined {
  const [first, second, ...more] = rest;
  if (more.length > 0) return undefined;
  if (segment === 'ai_prompts') {
    if (first === undefined) return { type: 'partsFolder', ...at, segment, id: resourceId };
    const part = second === undefined ? PART_BY_FILE.get(first) : undefined;
    return part && { type: 'part', ...at, segment, id: resourceId, part };
  }
  if (segment !== 'agents') return undefined;
  if (first === undefined) return { type: 'partsFolder', ...at, segment, id: resourceId };
  if (first !== 'prompts') return undefined;
  if (second === undefined) return { type: 'agentPromptsFolder', ...at, segment, id: resourceId };
  const element = second.endsWith('.md') ? second.slice(0, -'.md'.length) : undefined;
  return element !== undefined && isElementFileName(element)
    ? { type: 'agentPrompt', ...at, segment, id: resourceId, element }
    : undefined;
}

/**
 * Reads a `convai:` URI's authority and (decoded) path; undefined for anything
 * outside the layout. A trailing slash is optional on folders, since VS Code drops it.
 */
export function parseResourcePath(connection: string, path: string): ResourceLocation | undefined {
  if (!CONNECTION_NAME.test(connection)) return undefined;
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  const parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.some((part) => part === '')) return undefined;
  const [top, tenantPart, segment, resourcePart, ...rest] = parts;
  if (top === undefined) return { type: 'root', connection };
  if (top !== 'tenants') return undefined;
  if (tenantPart === undefined) return { type: 'tenants', connection };
  if (segment === undefined) {
    const tenantFile = jsonId(tenantPart);
    if (tenantFile !== undefined) return { type: 'tenant', connection, tenantId: tenantFile };
    const tenantId = id(tenantPart);
    return tenantId === undefined ? undefined : { type: 'tenantFolder', connection, tenantId };
  }
  const tenantId = id(tenantPart);
  if (tenantId === undefined || segment === undefined || !isTenantSegment(segment)) return undefined;
  if (resourcePart === undefined) return { type: 'kindFolder', connection, tenantId, segment };
  const resourceId = jsonId(resourcePart);
  if (resourceId !== undefined)
    return rest.length === 0 ? { type: 'resource', connection, tenantId, segment, id: resourceId } : undefined;
  const folderId = id(resourcePart);
  return folderId === undefined ? undefined : partLocation({ connection, tenantId }, segment, folderId, rest);
}

/** A readable name of what a part holds: `system`, `function_defs`, `prompt of "Greeting"`. */
export function partName(location: PartLocation): string {
  return location.type === 'part' ? location.part : `prompt of "${location.element}"`;
}

/**
 * A readable name for messages: "AI Prompt 3 of tenant 1 on local", or with
 * the resource's name where it is known: `"Order Triage" (AI Prompt 3 of tenant 1 on local)`.
 */
export function describeLocation(location: ResourceLocation, name?: string): string {
  const named = (text: string): string => (name === undefined ? text : `"${name}" (${text})`);
  switch (location.type) {
    case 'resource':
    case 'partsFolder':
    case 'agentPromptsFolder':
      return named(
        `${kindOfSegment(location.segment).label} ${location.id} of tenant ${location.tenantId} on ${location.connection}`,
      );
    case 'part':
    case 'agentPrompt':
      return `${partName(location)} of ${describeLocation(wholeOf(location), name)}`;
    case 'tenant':
      return named(`tenant ${location.tenantId} on ${location.connection}`);
    case 'kindFolder':
      return `${kindOfSegment(location.segment).pluralLabel} of tenant ${location.tenantId} on ${location.connection}`;
    case 'tenantFolder':
      return `tenant ${location.tenantId} on ${location.connection}`;
    case 'tenants':
      return `tenants on ${location.connection}`;
    case 'root':
      return `connection ${location.connection}`;
  }
}

/** The short form of a label `describeLocation` made: the resource's name when it has one, else the whole label. */
export function shortLabel(label: string): string {
  return /^"(.+)" \(.+\)$/.exec(label)?.[1] ?? label;
}
