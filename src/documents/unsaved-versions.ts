/**
 * The prompts a tenant's open editors hold unsaved versions of (contract: "Trials"): each dirty document of a prompt,
 * whole or a part, and each draft auto-save kept, read by the same view a save would read it with, so a trial tests
 * exactly what a save would send, and nothing is saved.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../core/client';
import { viewOf } from '../core/document-views';
import type { JsonObject } from '../core/json';
import { kindById } from '../core/resources';
import type { Proposal } from '../core/trials/trial-plan';
import { describeLocation, isFile, type FileLocation } from '../core/uri';
import type { Drafts } from './drafts';
import { parseUri } from '../shared/locations';

const PROMPT = kindById('prompt');

export interface UnsavedVersions {
  proposals: Proposal[];
  /** The service's detail of each prompt with unsaved edits, by id: what the proposals are compared with. */
  live: Map<number, JsonObject>;
  /** The editors whose text cannot be sent as it is (a JSON error, a field that fails its schema), named, by prompt. */
  problems: Array<{ id: number; text: string }>;
}

type PromptFile = FileLocation & { segment: 'ai_prompts'; id: number };

function promptFile(uri: vscode.Uri, connection: string, tenantId: number): PromptFile | undefined {
  const location = parseUri(uri);
  if (!location || !isFile(location) || location.type === 'tenant') return undefined;
  if (location.segment !== 'ai_prompts' || location.connection !== connection || location.tenantId !== tenantId)
    return undefined;
  return location as PromptFile;
}

/** The texts of the tenant's prompts that the service does not hold: dirty editors first, then kept drafts. */
async function unsavedTexts(
  drafts: Drafts,
  connection: string,
  tenantId: number,
  current: (id: number) => Promise<JsonObject>,
): Promise<Array<{ location: PromptFile; text: string; uri: vscode.Uri }>> {
  const texts = new Map<string, { location: PromptFile; text: string; uri: vscode.Uri }>();
  for (const document of vscode.workspace.textDocuments) {
    const location = document.isDirty ? promptFile(document.uri, connection, tenantId) : undefined;
    if (location) texts.set(document.uri.toString(), { location, text: document.getText(), uri: document.uri });
  }
  for (const key of drafts.keys()) {
    const uri = vscode.Uri.parse(key);
    const location = texts.has(key) ? undefined : promptFile(uri, connection, tenantId);
    const draft = location && (await drafts.read(key, () => current(location.id)));
    if (location && draft) texts.set(key, { location, text: draft.text, uri });
  }
  return [...texts.values()];
}

/** Whether a prompt of the tenant has unsaved edits or a draft: what a test run would try as a trial. */
function hasUnsavedPrompts(drafts: Drafts, tenant: { connection: string; tenantId: number }): boolean {
  const inTenant = (uri: vscode.Uri): boolean => {
    const location = parseUri(uri);
    return (
      location !== undefined &&
      isFile(location) &&
      location.type !== 'tenant' &&
      location.segment === 'ai_prompts' &&
      location.connection === tenant.connection &&
      location.tenantId === tenant.tenantId
    );
  };
  return (
    vscode.workspace.textDocuments.some((document) => document.isDirty && inTenant(document.uri)) ||
    drafts.keys().some((key) => inTenant(vscode.Uri.parse(key)))
  );
}

/** Each prompt of the tenant with unsaved edits, as a trial's proposal of the fields its editors change. */
export async function unsavedVersions(
  client: ServiceClient,
  drafts: Drafts,
  connection: string,
  tenantId: number,
  signal?: AbortSignal,
): Promise<UnsavedVersions> {
  const live = new Map<number, JsonObject>();
  // Most runs have nothing unsaved: they ask the service nothing more.
  if (!hasUnsavedPrompts(drafts, { connection, tenantId })) return { proposals: [], live, problems: [] };
  const current = async (id: number): Promise<JsonObject> => {
    let detail = live.get(id);
    if (!detail) {
      detail = await client.get(PROMPT, id, tenantId, { signal });
      live.set(id, detail);
    }
    return detail;
  };
  const fields = new Map<number, JsonObject>();
  const problems: UnsavedVersions['problems'] = [];
  for (const { location, text, uri } of await unsavedTexts(drafts, connection, tenantId, current)) {
    const base = await current(location.id);
    const read = viewOf(location).read(text, base);
    const name = vscode.workspace.asRelativePath(uri);
    if (!read.ok) {
      const messages = [...read.syntax.map((p) => p.message), ...read.problems.map((p) => p.message)];
      const text = `${describeLocation(location, String(base.name ?? ''))} (${name}): ${messages.join('; ')}`;
      problems.push({ id: location.id, text });
      continue;
    }
    const own = fields.get(location.id) ?? {};
    for (const field of read.sends) {
      const value = read.edited[field];
      if (value !== undefined) own[field] = value;
    }
    fields.set(location.id, own);
  }
  const proposals = [...fields].map(([id, own]) => ({
    id,
    name: typeof live.get(id)?.name === 'string' ? (live.get(id)?.name as string) : `#${id}`,
    fields: own,
  }));
  return { proposals, live, problems };
}
