/**
 * A plan as people read it: each change's request (method and path) in the
 * order a push sends them, with the fields' old and new values (credentials
 * already masked by the plan).
 */
import type { Json } from '../json';
import type { Change, Plan } from './plan';
import { codeSpan } from '../markdown-code';
import { plural } from '../text';

export interface ChangeRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
}

/** The request a change is sent as; none for a conflict, which is never sent. */
export function requestOf(change: Change, tenantId: number): ChangeRequest | undefined {
  const query = change.segment === 'tenants' ? '' : `?tenant_id=${tenantId}`;
  switch (change.action) {
    case 'create':
      return { method: 'POST', path: `/api/v1/${change.segment}${query}` };
    case 'update':
      return { method: 'PUT', path: `/api/v1/${change.segment}/${String(change.id)}${query}` };
    case 'delete':
      return { method: 'DELETE', path: `/api/v1/${change.segment}/${String(change.id)}${query}` };
    case 'conflict':
      return undefined;
  }
}

/** The contract's view of a change, what convai.planPush and convai.push answer with. */
export interface PublicChange {
  action: string;
  segment: string;
  id?: number;
  name: string;
  fields: string[];
}

export function publicChange(change: Change): PublicChange {
  return { action: change.action, segment: change.segment, ...(change.id === undefined ? {} : { id: change.id }), name: change.name, fields: change.fields };
}

/**
 * Text of the folder or the service in a table cell: a code span its text cannot close (as the plan's comment shows
 * it, see plan-markdown.ts), pipes escaped, which a table reads before the span.
 */
function cellText(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}

/** A value in a Markdown table cell: JSON, on one line, cut when long. */
function cell(value: Json | undefined): string {
  if (value === undefined) return '—';
  const text = JSON.stringify(value);
  return cellText(text.length > 120 ? `${text.slice(0, 119)}…` : text);
}

function changeSection(change: Change, index: number, tenantId: number): string[] {
  const request = requestOf(change, tenantId);
  // A name, a file, a field and a reason are the folder's or the service's text: code spans, never Markdown.
  const title = `${index + 1}. ${change.action} ${change.segment} ${codeSpan(change.name)}${change.id === undefined ? '' : ` (id ${change.id})`}`;
  const lines = [`### ${title}`, '', `File: ${codeSpan(change.file)}`, ''];
  if (request) lines.push(`\`${request.method} ${request.path}\``, '');
  if (change.reason) lines.push(`**Conflict:** ${codeSpan(change.reason)}. Nothing is sent while a conflict is in the plan.`, '');
  if (change.values.length > 0) {
    lines.push('| field | old (service) | new (folder) |', '|---|---|---|');
    for (const value of change.values) lines.push(`| ${cellText(value.field)} | ${cell(value.old)} | ${cell(value.new)} |`);
    lines.push('');
  }
  return lines;
}

/** The whole plan as a Markdown document. */
export function planDocument(plan: Plan, folder: string): string {
  const { manifest, changes, problems } = plan;
  const conflicts = changes.filter((c) => c.action === 'conflict').length;
  const summary = changes.length === 0
    ? (problems.length === 0 ? 'No change in the folder since the pull.' : 'No change to push, but the problems below must be fixed first.')
    : `${plural(changes.length, 'change')}, sent in this order${conflicts > 0 ? `; ${plural(conflicts, 'conflict')}, so a push sends nothing until they are resolved` : ''}.`;
  const lines = [
    `# Push plan: tenant ${manifest.tenantId} on ${codeSpan(manifest.connection)}`,
    '',
    `Folder ${codeSpan(folder)}, service ${codeSpan(manifest.baseUrl)}. ${summary}`,
    '',
  ];
  if (problems.length > 0) lines.push('## Problems (a push sends nothing until they are fixed)', '', ...problems.map((p) => `- ${codeSpan(p)}`), '');
  if (plan.notes.length > 0) lines.push('## Settled by looking at the service', '', ...plan.notes.map((n) => `- ${codeSpan(n)}`), '');
  if (changes.length > 0) lines.push('## Changes', '', ...changes.flatMap((change, index) => changeSection(change, index, manifest.tenantId)));
  return `${lines.join('\n').trimEnd()}\n`;
}
