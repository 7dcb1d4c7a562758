import { randomBytes } from 'node:crypto';
import { RunningService, ServiceOptions, startService } from '../service/server';
import { testOutputDir } from './paths';

/** The local service on a free loopback port, with a fresh admin token and its sample tenants. */
export function startLocalService(
  options: Pick<ServiceOptions, 'bulkTenants' | 'mapTenant' | 'largeTenant'> = {},
): Promise<RunningService> {
  return startService({ ...options, port: 0, adminToken: randomBytes(16).toString('hex'), testMode: true });
}

/**
 * What the tests inside VS Code need to know, passed through the extension host's environment. The large tenant's
 * service is a second one, so the tests of every other feature see the sample tenants alone.
 */
export function extensionTestEnv(
  service: RunningService,
  resultsFile: string,
  large?: RunningService,
): Record<string, string> {
  return {
    ...(large ? { CONVAI_LARGE_SERVICE_URL: large.url, CONVAI_LARGE_ADMIN_TOKEN: large.adminToken } : {}),
    CONVAI_TEST_RESULTS: resultsFile,
    CONVAI_SERVICE_URL: service.url,
    CONVAI_ADMIN_TOKEN: service.adminToken,
    CONVAI_TENANT_TOKENS: JSON.stringify(service.tenantTokens),
    CONVAI_TEST_OUTPUT: testOutputDir,
  };
}
