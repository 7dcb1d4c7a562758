/** Drift as a terminal shows it: a table of what moved on the service, and notes for a plan. */
import type { Drifted } from '../core/tenant/drift';
import type { Manifest } from '../core/tenant/manifest';
import { plural } from '../core/text';
import { table } from './format';

/** Where a drifted resource is: its file, or (created, so no file yet) its kind, name and id. */
function place(drifted: Drifted): string {
  return drifted.file ?? `${drifted.segment} "${drifted.name}" (id ${drifted.id})`;
}

/** What happened to it on the service, and what to do about it. */
function what(drifted: Drifted): string {
  switch (drifted.change) {
    case 'changed':
      return `changed on the service since the pull (${drifted.fields.join(', ')})`;
    case 'created':
      return 'created on the service since the pull; pull to get it';
    case 'deleted':
      return 'deleted on the service since the pull';
  }
}

export function driftLines(drift: readonly Drifted[], manifest: Manifest, folder: string): string[] {
  const head = `Tenant ${manifest.tenantId} of ${manifest.baseUrl}, folder ${folder}:`;
  if (drift.length === 0) return [`${head} nothing changed on the service since the pull.`];
  const rows = [
    ['change', 'kind', 'id', 'name', 'file', 'fields'],
    ...drift.map((d) => [d.change, d.segment, String(d.id), d.name, d.file ?? '-', d.fields.join(', ') || '-']),
  ];
  return [
    `${head} ${plural(drift.length, 'resource')} changed, created or deleted on the service since the pull.`,
    '',
    ...table(rows),
    '',
    "Pull to take the service's state into the folder (the files you changed are kept).",
  ];
}

/** What `plan --drift` adds: a note per drifted resource the folder does not change, or that there is none. */
export function planDriftLines(drift: readonly Drifted[]): string[] {
  if (drift.length === 0)
    return ['', 'No drift: the service holds what was pulled of every resource the folder does not change.'];
  return ['', ...driftNotes(drift).map((note) => `note: ${note}`)];
}

/** One note per drifted resource the folder does not change: the text of plan --drift's notes, in any format. */
export function driftNotes(drift: readonly Drifted[]): string[] {
  return drift.map(
    (d) => `${place(d)}: ${what(d)}; the folder does not change it, so a push leaves it as the service holds it.`,
  );
}
