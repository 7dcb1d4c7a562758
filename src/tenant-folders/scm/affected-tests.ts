/**
 * Run Affected Tests: the workspace's prompt test suites that a pulled
 * folder's planned push could change the answers of (the same choice as
 * `test --affected-by` of the CLI), each run through `convai.runPromptTests`
 * so that they show in the Testing view as any run does.
 */
import { notPulled } from '../../shared/pulled-folder';
import * as vscode from 'vscode';
import { plain } from '../../core/plain-text';
import { COMMANDS, registerCommand } from '../../commands';
import type { Log } from '../../log';
import { affectedByPlan } from '../../core/prompt-tests/affected';
import { runsInFolder, whereSuiteRuns } from '../../core/prompt-tests/target';
import { testTarget } from '../../shared/settings';
import type { publicResult } from '../../core/prompt-tests/report';
import { parseSuite } from '../../core/prompt-tests/suite-parser';
import { SUITE_SUFFIX } from '../../core/prompt-tests/suite';
import { plural } from '../../core/text';
import type { PulledFolderControl } from './folder-control';
import type { PulledFolders } from './pulled-folders';

type SuiteAnswer = ReturnType<typeof publicResult> & { uri: string };

/** The folder a program names: `{ folder }` as a URI (or its text). */
async function givenFolder(folders: PulledFolders, given: unknown): Promise<PulledFolderControl> {
  const folder = given instanceof vscode.Uri ? given : typeof given === 'string' ? vscode.Uri.parse(given) : undefined;
  if (!folder) throw new Error('folder must be the URI of a pulled tenant folder (a vscode.Uri or its text).');
  const control = await folders.byFolder(folder.fsPath);
  if (!control) throw notPulled(folder.fsPath);
  return control;
}

/** The folder a user's click names: the list the view's title bar belongs to, or the one pulled folder. */
async function clickedFolder(folders: PulledFolders, arg: unknown): Promise<PulledFolderControl> {
  const all = await folders.all();
  const control = (await folders.find(arg)) ?? (all.length === 1 ? all[0] : undefined);
  if (!control)
    throw new Error("Run Affected Tests from the title bar of a pulled folder's list in the Source Control view.");
  return control;
}

/**
 * The workspace's suites the plan affects, in path order. A suite of another tenant or connection names another prompt,
 * whatever its name; one that cannot be read as a suite is left to the Testing view.
 */
async function affectedSuites(control: PulledFolderControl): Promise<vscode.Uri[]> {
  const plan = await control.plan();
  const choice = affectedByPlan(plan);
  if ('problems' in choice) {
    throw new Error(
      `No prompt test ran: the planned push of ${control.label} has ${plural(choice.problems.length, 'problem')}, so the suites it affects cannot be told; fix ${choice.problems.length === 1 ? 'it' : 'them'} (the folder's Problems list in the Source Control view), then run again: ${choice.problems.join('; ')}`,
    );
  }
  const { affected } = choice;
  const found = await vscode.workspace.findFiles(`**/*${SUITE_SUFFIX}`, '**/node_modules/**');
  const chosen: vscode.Uri[] = [];
  for (const uri of found.sort((a, b) => a.path.localeCompare(b.path, 'en'))) {
    const { suite } = parseSuite(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    if (suite && runsInFolder(whereSuiteRuns(suite, {}, testTarget()), plan.manifest) && affected(suite))
      chosen.push(uri);
  }
  return chosen;
}

/** Runs the affected suites in turn through `convai.runPromptTests`, which shows each in the Testing view. */
async function runAffected(control: PulledFolderControl): Promise<SuiteAnswer[]> {
  const suites: SuiteAnswer[] = [];
  for (const uri of await affectedSuites(control)) {
    const result = await vscode.commands.executeCommand<ReturnType<typeof publicResult>>(COMMANDS.runPromptTests, {
      uri: uri.toString(),
    });
    suites.push({ uri: uri.toString(), ...result });
  }
  return suites;
}

export function registerRunAffectedTests(log: Log, folders: PulledFolders): vscode.Disposable {
  return registerCommand<{ suites: SuiteAnswer[] }>(log, COMMANDS.runAffectedTests, {
    programmatic: async (args) => ({ suites: await runAffected(await givenFolder(folders, args.folder)) }),
    interactive: async (arg) => {
      const control = await clickedFolder(folders, arg);
      const title = 'Running affected prompt tests';
      const suites = await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl, title }, () =>
        runAffected(control),
      );
      const failed = suites.reduce((sum, s) => sum + s.failed, 0);
      void vscode.window.showInformationMessage(
        suites.length === 0
          ? plain`No prompt test suite of this workspace is affected by the planned push of ${control.label}.`
          : `Ran ${plural(suites.length, 'affected suite')}: ${failed === 0 ? 'every case passed' : `${plural(failed, 'case')} failed; see the Testing view`}.`,
      );
      return { suites };
    },
  });
}
