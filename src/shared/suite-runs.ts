/**
 * The latest result of every suite case run in this window, for the views
 * that show what the tests reached (the flow map's coverage). The prompt
 * tests record; nothing else writes. A run of some cases replaces only those.
 */
import * as vscode from 'vscode';
import type { RecordedCase, RecordedSuite } from '../core/flow-map/coverage';

type NamedCase = RecordedCase & { name: string };

export interface SuiteRecord extends RecordedSuite {
  /** The connection the suite ran against: a tenant id alone names no service. */
  connection: string;
  result: { cases: readonly NamedCase[] };
}

export class SuiteRuns implements vscode.Disposable {
  private readonly bySuite = new Map<string, SuiteRecord>();
  private readonly recorded = new vscode.EventEmitter<{ connection: string; tenantId: number }>();
  /** A suite of that tenant ran. */
  readonly onDidRecord = this.recorded.event;

  record(suite: string, run: SuiteRecord): void {
    const before = this.bySuite.get(suite);
    const sameTarget =
      before &&
      before.connection === run.connection &&
      before.target.tenantId === run.target.tenantId &&
      before.target.id === run.target.id;
    const cases = new Map((sameTarget ? before.result.cases : []).map((c) => [c.name, c]));
    for (const testCase of run.result.cases) cases.set(testCase.name, testCase);
    this.bySuite.set(suite, { ...run, result: { cases: [...cases.values()] } });
    this.recorded.fire({ connection: run.connection, tenantId: run.target.tenantId });
  }

  /** The suites run against that tenant of the connections `ofService` accepts, in the order they first ran. */
  of(tenantId: number, ofService: (connection: string) => boolean): SuiteRecord[] {
    return [...this.bySuite.values()].filter((run) => run.target.tenantId === tenantId && ofService(run.connection));
  }

  dispose(): void {
    this.recorded.dispose();
  }
}
