import { request } from 'undici';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { startService, type RunningService, type ServiceOptions } from '../service/server';

export interface ContractContext {
  service: RunningService;
  admin: ServiceClient;
  clientWith(token: string): ServiceClient;
  close(): Promise<void>;
}

/** Starts the local service on a free loopback port with a client per token. */
export async function startContract(
  options: Pick<ServiceOptions, 'timestamps' | 'duplicateNames'> = {},
): Promise<ContractContext> {
  const service = await startService({ port: 0, adminToken: 'contract-admin-token', testMode: true, ...options });
  const clients: ServiceClient[] = [];
  const clientWith = (token: string): ServiceClient => {
    const client = new ServiceClient({ baseUrl: service.url, token: () => token, timeoutMs: 10_000 });
    clients.push(client);
    return client;
  };
  return {
    service,
    admin: clientWith(service.adminToken),
    clientWith,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await service.close();
    },
  };
}

/** The local service for a whole mocha suite, handed to `take` once it runs, and closed after the suite. */
export function useContract(take: (ctx: ContractContext) => void): void {
  let started: ContractContext | undefined;
  before(async () => {
    started = await startContract();
    take(started);
  });
  after(async () => {
    await started?.close();
  });
}

/** The service emptied of what earlier tests made, and one new tenant of it: each folder test starts from there. */
export async function freshTenant(ctx: ContractContext, name: string): Promise<number> {
  await request(`${ctx.service.url}/__test/reset`, { method: 'POST' }).then((r) => r.body.text());
  return (
    await ctx.admin.create(kindById('tenant'), {
      name,
      email: `${name.toLowerCase().replace(/\W+/g, '-')}@example.com`,
    })
  ).id as number;
}
