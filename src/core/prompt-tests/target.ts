/**
 * What a suite tests, found by name (or id) in the chosen tenant, so one suite
 * runs against staging and production; and how one run of a case is sent.
 */
import type { ServiceClient } from '../client';
import type { JsonObject } from '../json';
import { kindOfSegment, type ResourceKind } from '../resources';
import type { Execute } from './run';
import type { Suite } from './suite';

export class TargetError extends Error {}

export interface ResolvedTarget {
  kind: ResourceKind;
  id: number;
  name: string;
  tenantId: number;
}

/** The suite's prompt or integration in the tenant; `where` names the connection or URL in the message. */
export async function resolveTarget(client: ServiceClient, suite: Suite, tenantId: number, where: string, signal?: AbortSignal): Promise<ResolvedTarget> {
  const { segment, ref } = suite.resource;
  const kind = kindOfSegment(segment);
  const items = await client.list(kind, tenantId, { signal });
  const named = typeof ref === 'string' ? items.filter((i) => i.name === ref) : [];
  if (named.length > 1) {
    // Names are not unique on the service: running whichever comes first could test the wrong prompt unnoticed.
    const ids = named.map((i) => i.id);
    const field = kind.id;
    throw new TargetError(`${kind.label} ${JSON.stringify(ref)} names ${named.length} ${field}s in tenant ${tenantId} on ${where} (ids ${ids.join(', ')}): give the id instead ("${field}": ${String(ids[0])}), or rename one.`);
  }
  const found = typeof ref === 'number' ? items.find((i) => i.id === ref) : named[0] ?? items.find((i) => String(i.id) === ref);
  if (!found || typeof found.id !== 'number') {
    const names = items.map((i) => JSON.stringify(i.name)).slice(0, 10).join(', ');
    throw new TargetError(`${kind.label} ${typeof ref === 'number' ? ref : JSON.stringify(ref)} is not in tenant ${tenantId} on ${where}${names ? `; it holds ${names}${items.length > 10 ? ', …' : ''}` : ''}.`);
  }
  return { kind, id: found.id, name: typeof found.name === 'string' ? found.name : `#${found.id}`, tenantId };
}

/** One run of a case: test_prompt or execute_action with the case's inputs. */
export function executorFor(client: ServiceClient, target: ResolvedTarget): Execute {
  return async (testCase, signal) => {
    if (target.kind.id === 'prompt') {
      const body = { prompt_text: testCase.prompt_text ?? '', ...(testCase.prompt_params ? { prompt_params: testCase.prompt_params } : {}) };
      return (await client.testPrompt(target.kind, target.id, target.tenantId, body, { signal })) as unknown as JsonObject;
    }
    const body = { action: testCase.action ?? '', ...(testCase.params ? { params: testCase.params } : {}) };
    return (await client.executeAction(target.kind, target.id, target.tenantId, body, { signal })) as unknown as JsonObject;
  };
}
