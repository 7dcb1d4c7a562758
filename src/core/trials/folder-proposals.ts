/**
 * A pulled folder's planned push as the proposals of a trial (contract: "Trials", `--trial <folder>`): each prompt the
 * plan updates or creates, with the folder's values as the service would take them. A plan a push would refuse is no
 * version to test, so its problems and conflicts come back instead, as `plan` words them.
 */
import type { JsonObject } from '../json';
import { kindById } from '../resources';
import { wireValue } from '../tenant/folder-values';
import type { Plan } from '../tenant/plan';
import { planVerdict } from '../tenant/plan-verdict';
import type { Proposal } from './trial-plan';

export interface FolderTrial {
  proposals: Proposal[];
  /** The prompts the plan deletes: a suite that names one has nothing to run. */
  deleted: Array<{ id: number; name: string }>;
  /** The changes of other kinds, which a trial cannot copy: they are said, and tested as they are live. */
  untested: number;
}

const PROMPT = kindById('prompt');

export function folderProposals(plan: Plan): FolderTrial | { problems: string[] } {
  const verdict = planVerdict(plan);
  if (!verdict.pushable)
    return {
      problems: [
        ...verdict.conflicts.map(
          (c) => `${c.file}: conflict: ${c.reason ?? 'changed in the folder and on the service'}`,
        ),
        ...verdict.problems,
      ],
    };
  const trial: FolderTrial = { proposals: [], deleted: [], untested: 0 };
  for (const change of plan.changes) {
    if (change.segment !== 'ai_prompts') {
      trial.untested++;
      continue;
    }
    if (change.action === 'delete') {
      if (change.id !== undefined) trial.deleted.push({ id: change.id, name: change.name });
      continue;
    }
    const values = plan.local.get(change.file)?.values ?? {};
    const fields: JsonObject = {};
    for (const field of change.fields) {
      const value = values[field];
      if (value !== undefined) fields[field] = wireValue(PROMPT, field, value);
    }
    // A suite written before a rename names the prompt as the service does.
    const live = typeof change.service?.name === 'string' ? change.service.name : change.name;
    trial.proposals.push(
      change.action === 'create'
        ? { file: change.file, name: change.name, fields }
        : { ...(change.id === undefined ? {} : { id: change.id }), name: live, fields },
    );
  }
  return trial;
}
