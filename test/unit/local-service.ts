/** For unit tests of the core against the local service: a fresh service and an admin client per test, closed after it. */
import { ServiceClient } from '../../src/core/client';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { pullTenant } from '../../src/core/tenant/pull';
import { startService, type RunningService } from '../service/server';

export interface LocalService {
  readonly service: RunningService;
  readonly client: ServiceClient;
  /** The tenant pulled into a folder in memory, through the connection "local". */
  pulled(tenantId: number): Promise<MemoryFolder>;
}

/** Call in a `describe`: its tests each get their own service with the sample data. */
export function useLocalService(adminToken: string): LocalService {
  let running: { service: RunningService; client: ServiceClient } | undefined;
  const get = (): { service: RunningService; client: ServiceClient } => {
    if (!running) throw new Error('The local service runs only while a test does.');
    return running;
  };
  beforeEach(async () => {
    const service = await startService({ adminToken });
    running = { service, client: new ServiceClient({ baseUrl: service.url, token: () => service.adminToken }) };
  });
  afterEach(async () => {
    await running?.client.close();
    await running?.service.close();
    running = undefined;
  });
  return {
    get service() {
      return get().service;
    },
    get client() {
      return get().client;
    },
    async pulled(tenantId) {
      const { client, service } = get();
      const folder = new MemoryFolder();
      await pullTenant(client, folder, { connection: 'local', baseUrl: service.url, tenantId });
      return folder;
    },
  };
}
