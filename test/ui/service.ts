import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { workbench } from './workbench';

/** A client of the workbench's local service as its admin, for checking what a test's clicks did; close it after. */
export function adminClient(): ServiceClient {
  const { service } = workbench();
  return new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
}

/** The id of the sample data's prompt of that name in that tenant. */
export async function samplePromptId(client: ServiceClient, tenantId: number, name: string): Promise<number> {
  const prompt = (await client.list(kindById('prompt'), tenantId)).find((p) => p.name === name);
  assert.ok(prompt, `the sample data has the prompt ${name}`);
  return prompt.id as number;
}
