/**
 * The workspace's suites and judge files of a map's tenant, and what they
 * make of its prompts (`src/core/flow-map/prompt-roles.ts` decides): read
 * from disk at each read of the map, which follows their changes.
 */
import * as vscode from 'vscode';
import { sameBaseUrl } from '../core/base-url';
import { promptUses, type PromptUses } from '../core/flow-map/prompt-roles';
import { JUDGE_SUFFIX, parseJudgeFile, type JudgeFile } from '../core/prompt-tests/judge-file';
import { SUITE_SUFFIX, type Suite, type SuiteTarget } from '../core/prompt-tests/suite';
import { parseSuite } from '../core/prompt-tests/suite-parser';
import { whereSuiteRuns } from '../core/prompt-tests/target';
import type { Connections } from '../connections/registry';
import { testTarget } from '../shared/settings';

/** The service and tenant a map is of: a folder's names the connection that pulled it, perhaps the CLI's, and its service. */
export interface MapTenant {
  connection: string;
  baseUrl: string;
  tenantId: number;
}

/** The patterns of the files read here, which a map on show watches. */
export const TEST_FILE_GLOBS = [`**/*${SUITE_SUFFIX}`, `**/*${JUDGE_SUFFIX}`] as const;

/**
 * Whether suites run through `connection` run against the map's service: the same connection, or (a folder the CLI
 * pulled, or one pulled before its connection was added) one with the folder's base URL. Asked at each use, since
 * connections come and go.
 */
export function ofService(connections: Connections, tenant: MapTenant): (connection: string) => boolean {
  return (connection) =>
    connection === tenant.connection || sameBaseUrl(connections.get(connection)?.baseUrl ?? '', tenant.baseUrl);
}

async function texts(glob: string): Promise<string[]> {
  const found = await vscode.workspace.findFiles(glob, '**/node_modules/**');
  const read = await Promise.all(
    found.map((uri) =>
      vscode.workspace.fs.readFile(uri).then(
        (bytes) => new TextDecoder().decode(bytes),
        // A file gone or unreadable since it was found says nothing of the tenant; the Testing view reports it.
        () => undefined,
      ),
    ),
  );
  return read.filter((text): text is string => text !== undefined);
}

/**
 * What the workspace's test files that run against `tenant` make of its prompts. A file whose target leaves the
 * tenant or connection unnamed (after convai.testTarget) is taken to be the map's, as Run Affected Tests takes it.
 */
export async function tenantPromptUses(connections: Connections, tenant: MapTenant): Promise<PromptUses> {
  const service = ofService(connections, tenant);
  const here = (file: { target?: SuiteTarget }): boolean => {
    const where = whereSuiteRuns(file, {}, testTarget());
    return (
      (where.tenantId ?? tenant.tenantId) === tenant.tenantId &&
      (where.connection === undefined || service(where.connection))
    );
  };
  const [suiteTexts, judgeTexts] = await Promise.all(TEST_FILE_GLOBS.map(texts));
  const suites = (suiteTexts ?? []).flatMap((text): Suite[] => {
    const { suite } = parseSuite(text);
    return suite && here(suite) ? [suite] : [];
  });
  const judges = (judgeTexts ?? []).flatMap((text): JudgeFile[] => {
    const { file } = parseJudgeFile(text);
    return file && here(file) ? [file] : [];
  });
  return promptUses({ suites, judges });
}
