/**
 * Open Variant Lab (contract: "Variant lab"): every case of a suite run on the prompt as it is (the base, its saved
 * version) and on each variant through a trial copy deleted after, then the table of what that came to in the lab's
 * panel. A person is asked before a costly run and can cancel it; a program is asked nothing and gets the figures
 * `convai test --json` gives, once the page drew them.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { userCacheDir } from '../core/cache-dir';
import { matrixBound } from '../core/prompt-tests/cost';
import { plain } from '../core/plain-text';
import { caseRunText } from '../core/prompt-tests/run-text';
import { caseInputs } from '../core/prompt-tests/target';
import { TrialJournal, trialJournalDir } from '../core/trials/trial-journal';
import { leftText } from '../core/trials/trial-report';
import { variantReports, type VariantReport } from '../core/variants/variant-report';
import { runVariantMatrix, type MatrixRun } from '../core/variants/variant-run';
import type { Connections } from '../connections/registry';
import type { CaseRunDocuments } from '../shared/case-runs';
import { confirmRequestsAbove, testConcurrency } from '../shared/settings';
import { cancellable, countProgress, type Progress } from '../ui/progress';
import { showApplied } from './apply';
import type { VariantLabPanel } from './panel';
import { labSuite, suiteWithVariants, type LabSuite } from './suite';
import { labView } from './view';

export interface LabServices {
  connections: Connections;
  caseRuns: CaseRunDocuments;
}

/** Whether a person wants a run that can send more than convai.confirmRequestsAbove requests. */
async function affordable(uri: vscode.Uri): Promise<boolean> {
  const { suite } = await suiteWithVariants(uri);
  const bound = matrixBound(suite);
  const limit = confirmRequestsAbove();
  if (bound <= limit) return true;
  const variants = suite.variants?.length ?? 0;
  const answer = await vscode.window.showWarningMessage(
    `This run can send up to ${bound} requests, more than ${limit} (convai.confirmRequestsAbove). Run it?`,
    {
      modal: true,
      detail: `Every case runs on the base and on each of the ${variants} variants, repeat times each, and each variant's trial copy is created and deleted.`,
    },
    'Run',
  );
  return answer === 'Run';
}

async function runMatrix(
  lab: LabSuite,
  connections: Connections,
  signal?: AbortSignal,
  progress?: Progress,
): Promise<MatrixRun> {
  const { connection, tenantId } = lab.tenant;
  const service = connections.get(connection)?.baseUrl ?? connection;
  const cells = lab.suite.cases.length * (1 + lab.variants.length);
  let done = 0;
  const report = countProgress(progress, (n, total) => `${n} of ${total} cells`);
  const run = await runVariantMatrix({
    client: lab.client,
    suite: lab.suite,
    target: lab.target,
    variants: lab.variants,
    journal: (tag) => new TrialJournal(trialJournalDir(userCacheDir()), service, tenantId, tag),
    concurrency: testConcurrency(),
    ...(signal ? { signal } : {}),
    onCell: () => report((done += 1), cells),
  });
  const left = run.trials.flatMap((trial) => trial.left ?? []);
  if (left.length > 0) throw new Error(leftText(left, tenantId));
  return run;
}

/** The lab's table of a finished run, and what its cells and Apply buttons do. */
async function present(
  panel: VariantLabPanel,
  services: LabServices,
  lab: LabSuite,
  run: MatrixRun,
): Promise<{ variants: VariantReport[] }> {
  const reports = variantReports(run.base, run.variants);
  const file = path.basename(lab.uri.path);
  // The page sets every text as a text node: no escaping for Markdown here, which would show as backslashes.
  const note = `${file} on ${lab.prompt.label}: the base is the saved prompt; each variant ran through a trial copy, deleted after. Nothing was saved.`;
  const columns = [{ name: reports[0]?.name ?? 'base', result: run.base }, ...run.variants];
  await panel.show(labView(`Variant Lab: ${file}`, note, reports), {
    open: async (row, column) => {
      const name = reports[0]?.cases[row]?.name;
      const testCase = lab.suite.cases.find((c) => c.name === name);
      const on = columns[column];
      const result = on?.result.cases.find((c) => c.name === name);
      if (!testCase || !on || !result) return;
      const inputs = caseInputs('test_prompt', testCase);
      const text = caseRunText(testCase, result, path.basename(lab.uri.path), inputs, on.name);
      await services.caseRuns.openRun(lab.uri, testCase, result, text, on.name);
    },
    apply: async (column) => {
      const variant = run.variants[column - 1];
      if (variant) await showApplied(lab, variant.name);
    },
  });
  return { variants: reports };
}

/** `convai.showVariantLab` `{ uri }` from a program: `{ variants }` once drawn. */
export async function showProgrammatic(
  panel: VariantLabPanel,
  services: LabServices,
  uri: vscode.Uri,
): Promise<{ variants: VariantReport[] }> {
  const lab = await labSuite(services.connections, uri);
  return present(panel, services, lab, await runMatrix(lab, services.connections));
}

/** From a person: asked first when costly, with progress and Cancel (a cancelled run's copies are deleted too). */
export async function showAsked(
  panel: VariantLabPanel,
  services: LabServices,
  uri: vscode.Uri,
): Promise<{ variants: VariantReport[] } | undefined> {
  if (!(await affordable(uri))) return undefined;
  const outcome = await cancellable(plain`Variant Lab: ${path.basename(uri.path)}`, async (signal, progress) => {
    try {
      const lab = await labSuite(services.connections, uri, signal);
      const run = await runMatrix(lab, services.connections, signal, progress);
      return signal.aborted ? undefined : { lab, run };
    } catch (error) {
      // Cancel aborted a request on the way: what was cancelled is no failure.
      if (signal.aborted) return undefined;
      throw error;
    }
  });
  if (!outcome) {
    void vscode.window.showInformationMessage('The variant run was cancelled; its trial copies were deleted.');
    return undefined;
  }
  return present(panel, services, outcome.lab, outcome.run);
}
