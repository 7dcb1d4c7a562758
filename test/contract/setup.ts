import { ServiceClient } from '../../src/core/client';
import { startService, type RunningService, type ServiceOptions } from '../service/server';

export interface ContractContext {
  service: RunningService;
  admin: ServiceClient;
  clientWith(token: string): ServiceClient;
  close(): Promise<void>;
}

/** Starts the local service on a free loopback port with a client per token. */
export async function startContract(options: Pick<ServiceOptions, 'timestamps' | 'duplicateNames'> = {}): Promise<ContractContext> {
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
