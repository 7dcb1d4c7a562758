/**
 * convai.drift and convai.takeServiceVersion (contract: "Saved plans, drift
 * and review"): what changed on the service since a folder was pulled, and
 * one resource's service version written into the folder. Both fill the
 * folder's "Changed on the service" group; from the view, Take Service Version
 * is given its rows, from the palette it asks for the folder and the resource.
 */
import * as vscode from 'vscode';
import { plain, plainText } from '../../core/plain-text';
import { COMMANDS, registerCommand } from '../../commands';
import { isResourceId } from '../../core/references';
import { kindOfSegment, TENANT_SEGMENTS } from '../../core/resources';
import type { Segment } from '../../core/resource-kind';
import { publicDrifted, type Drifted } from '../../core/tenant/drift';
import { plural } from '../../core/text';
import type { Log } from '../../log';
import { notPulled, pulledFolder } from '../../shared/pulled-folder';
import { cancellable, countProgress } from '../../ui/progress';
import { DriftState } from './drift-group';
import type { PulledFolderControl } from './folder-control';
import type { PulledFolders } from './pulled-folders';

const SEGMENTS: readonly Segment[] = ['tenants', ...TENANT_SEGMENTS];
const TAKE = 'Take Service Version';

/** The list of the folder a call names (a path, a URI, the view's list), or of the folder the user picks. */
async function controlOf(folders: PulledFolders, arg: unknown): Promise<PulledFolderControl | undefined> {
  const folder = await pulledFolder(arg);
  if (!folder) return undefined;
  const control = await folders.byFolder(folder);
  if (!control) throw notPulled(folder);
  return control;
}

/** Asks the service for a folder's drift, with a progress the user can cancel. */
function findDriftShown(control: PulledFolderControl): Thenable<Drifted[]> {
  return cancellable(`Looking for changes on the service of ${control.label}`, (signal, progress) =>
    control.findDrift({
      signal,
      onProgress: countProgress(progress, (done, total) => `${done} of ${plural(total, 'resource')}`),
    }),
  );
}

function registerDrift(log: Log, folders: PulledFolders): vscode.Disposable {
  return registerCommand(log, COMMANDS.drift, {
    programmatic: async (args) => {
      const control = await controlOf(folders, args.folder);
      return control && { drifted: (await control.findDrift()).map(publicDrifted) };
    },
    interactive: async (arg) => {
      const control = await controlOf(folders, arg);
      if (!control) return undefined;
      const drifted = await findDriftShown(control);
      if (drifted.length === 0)
        void vscode.window.showInformationMessage(
          plain`Nothing changed on the service of ${control.label} since the pull.`,
        );
      else await vscode.commands.executeCommand('workbench.view.scm');
      return { drifted: drifted.map(publicDrifted) };
    },
  });
}

/** A programmatic caller's `{ segment, id }`. */
function targetArg(arg: Record<string, unknown>): { segment: Segment; id: number } {
  const { segment, id } = arg;
  if (typeof segment !== 'string' || !SEGMENTS.includes(segment as Segment))
    throw new Error(`segment must be one of ${SEGMENTS.join(', ')}.`);
  if (!isResourceId(id)) throw new Error("id must be the resource's integer id on the service.");
  return { segment: segment as Segment, id };
}

/** From the palette: a drifted resource of the folder, found again when the list holds none. */
async function pickDrifted(control: PulledFolderControl): Promise<Drifted | undefined> {
  const drifted = control.currentDrift().length > 0 ? control.currentDrift() : await findDriftShown(control);
  if (drifted.length === 0) {
    void vscode.window.showInformationMessage(
      plain`Nothing changed on the service of ${control.label} since the pull: there is no service version to take.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    drifted.map((item) => ({
      label: plainText(item.name),
      description: plainText(
        `${kindOfSegment(item.segment).label} · ${item.change === 'changed' ? `changed: ${item.fields.join(', ')}` : item.change} on the service`,
      ),
      item,
    })),
    { title: plain`${TAKE}: ${control.label}`, placeHolder: 'The resource whose service version the folder takes' },
  );
  return picked?.item;
}

/** Asks before a take replaces what the user changed in the resource's files. */
async function confirmed(control: PulledFolderControl, items: readonly Drifted[]): Promise<boolean> {
  const edited = items.filter((item) => item.file !== undefined && control.changedLocally(item.file));
  if (edited.length === 0) return true;
  const names = edited.map((item) => plain`"${item.name}"`).join(', ');
  const choice = await vscode.window.showWarningMessage(
    `Take the service's version of ${names}? Your changes to ${edited.length === 1 ? 'its files' : 'their files'} in the folder are replaced.`,
    { modal: true },
    TAKE,
  );
  return choice === TAKE;
}

function registerTake(log: Log, folders: PulledFolders): vscode.Disposable {
  return registerCommand(log, COMMANDS.takeServiceVersion, {
    programmatic: async (args) => {
      const control = await controlOf(folders, typeof args.folder === 'string' ? args.folder : undefined);
      if (!control) throw new Error('folder must be the absolute path of a pulled tenant folder.');
      await control.take(targetArg(args));
      return undefined;
    },
    interactive: async (arg, ...rest) => {
      // The view hands the row clicked and the rows selected, sometimes as one array; a row of each file of a resource.
      const rows = [arg, ...rest].flat().filter((a): a is DriftState => a instanceof DriftState);
      const byFolder = new Map<string, Map<string, Drifted>>();
      for (const row of rows)
        byFolder.set(
          row.folder,
          (byFolder.get(row.folder) ?? new Map<string, Drifted>()).set(
            `${row.drifted.segment}/${row.drifted.id}`,
            row.drifted,
          ),
        );
      if (byFolder.size === 0) {
        const control = await controlOf(folders, undefined);
        const item = control && (await pickDrifted(control));
        if (control && item) byFolder.set(control.root.fsPath, new Map([['picked', item]]));
      }
      for (const [folder, items] of byFolder) {
        const control = await controlOf(folders, folder);
        if (!control || !(await confirmed(control, [...items.values()]))) continue;
        for (const item of items.values()) await control.take(item);
      }
      return undefined;
    },
  });
}

export function registerDriftCommands(log: Log, folders: PulledFolders): vscode.Disposable[] {
  return [registerDrift(log, folders), registerTake(log, folders)];
}
