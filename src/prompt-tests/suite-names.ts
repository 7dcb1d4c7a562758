import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import { namingProblems, whereSuiteRuns } from '../core/prompt-tests/target';
import type { Suite, SuiteProblem } from '../core/prompt-tests/suite';
import { testTarget } from '../shared/settings';
import { textRange } from '../ui/text-range';

/** A suite's problems as the editor shows them, each at its place. */
export function suiteDiagnostics(text: string, problems: readonly SuiteProblem[]): vscode.Diagnostic[] {
  return problems.map((p) =>
    Object.assign(
      new vscode.Diagnostic(
        textRange(text, p.range.offset, Math.max(p.range.length, 1)),
        p.message,
        vscode.DiagnosticSeverity.Error,
      ),
      { source: 'ConvAI' },
    ),
  );
}

/**
 * The names a suite gives (its prompt or integration; a case's answering prompts, caller, judges and stopping prompt)
 * checked against its tenant's cached listing while the suite is written, so a typo shows before a run refuses it.
 */
export class SuiteNameCheck {
  /** Per file, the latest check: an older one whose listing loads late must not overwrite a newer text's problems. */
  private readonly generations = new Map<string, number>();

  constructor(private readonly listings: ListingCache) {}

  /**
   * The problems of the names `suite` gives, read from `text`; undefined when there is nothing to say: no suite (its
   * text has problems of its own), no tenant to check against, a listing that cannot load (a run says why), or a
   * newer text of the file checked since.
   */
  async check(uri: vscode.Uri, text: string, suite: Suite | undefined): Promise<vscode.Diagnostic[] | undefined> {
    const key = uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    if (!suite) return undefined;
    const { connection, tenantId } = whereSuiteRuns(suite, {}, testTarget());
    if (connection === undefined || tenantId === undefined) return undefined;
    let items;
    try {
      items = await this.listings.items({ connection, tenantId, segment: suite.resource.segment });
    } catch {
      return undefined;
    }
    if (this.generations.get(key) !== generation) return undefined;
    return suiteDiagnostics(text, namingProblems(suite, items, tenantId, `connection "${connection}"`));
  }

  forget(uri: vscode.Uri): void {
    this.generations.delete(uri.toString());
  }
}
