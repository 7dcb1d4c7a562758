import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import type { CaseRunDocuments } from '../shared/case-runs';
import { namedTestFile } from '../shared/suite-target';
import { registerVariantLenses } from './codelens';
import type * as Opened from './opened';

/** The suite a command names: a URI (or its text), else the active editor's suite. */
function suiteUri(arg: unknown): vscode.Uri {
  return namedTestFile(
    arg,
    [SUITE_SUFFIX],
    `uri must name a prompt test suite with variants, a file whose name ends in ${SUITE_SUFFIX}; open one to run its variants.`,
  );
}

/**
 * The variant lab (contract: "Variant lab"): a suite's cases on its prompt and on each variant, side by side in a
 * panel, and Apply Variant. Its code, the matrix run and its trial copies load only when a lab opens.
 */
export function register(
  context: vscode.ExtensionContext,
  { log, connections, caseRuns }: { log: Log; connections: Connections; caseRuns: CaseRunDocuments },
): void {
  let panel: Opened.VariantLabPanel | undefined;
  const services = { connections, caseRuns };
  const opened = (): { code: typeof Opened; panel: Opened.VariantLabPanel } => {
    // scripts/build.mjs keeps './opened' in dist/trials.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const code = require('./opened') as typeof Opened;
    if (!panel) context.subscriptions.push((panel = new code.VariantLabPanel(context.extensionUri, log)));
    return { code, panel };
  };
  context.subscriptions.push(
    registerVariantLenses(),
    registerCommand(log, COMMANDS.showVariantLab, {
      programmatic: async (args) => {
        const { code, panel } = opened();
        return code.showProgrammatic(panel, services, suiteUri(args.uri));
      },
      interactive: async (arg) => {
        const { code, panel } = opened();
        return code.showAsked(panel, services, suiteUri(arg));
      },
    }),
    registerCommand(log, COMMANDS.applyVariant, {
      programmatic: async (args) => opened().code.applyProgrammatic(connections, args),
      interactive: async (arg) => opened().code.applyAsked(connections, arg),
    }),
  );
}
