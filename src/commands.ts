import * as vscode from 'vscode';
import type { Log } from './log';
import { showFailure } from './ui/notify';

/** Every command id the extension contributes, in one place. */
export const COMMANDS = {
  showLog: 'convai.showLog',
  addConnection: 'convai.addConnection',
  removeConnection: 'convai.removeConnection',
  setToken: 'convai.setToken',
  refresh: 'convai.refresh',
  createResource: 'convai.createResource',
  deleteResource: 'convai.deleteResource',
  goToResource: 'convai.goToResource',
  openTenant: 'convai.openTenant',
  openTenantInExplorer: 'convai.openTenantInExplorer',
  testPrompt: 'convai.testPrompt',
  executeAction: 'convai.executeAction',
  showRunHistory: 'convai.showRunHistory',
  previewRequest: 'convai.previewRequest',
  sendRequest: 'convai.sendRequest',
  newRequestDefinition: 'convai.newRequestDefinition',
  storeRequestSecret: 'convai.storeRequestSecret',
  revealCredentials: 'convai.revealCredentials',
  resolveDraft: 'convai.resolveDraft',
  openPromptPart: 'convai.openPromptPart',
  addAiFunction: 'convai.addAiFunction',
  pullTenant: 'convai.pullTenant',
  planPush: 'convai.planPush',
  push: 'convai.push',
  savePlan: 'convai.savePlan',
  pushSavedPlan: 'convai.pushSavedPlan',
  drift: 'convai.drift',
  takeServiceVersion: 'convai.takeServiceVersion',
  refreshTenantChanges: 'convai.refreshTenantChanges',
  compareTenants: 'convai.compareTenants',
  promote: 'convai.promote',
  closeComparison: 'convai.closeComparison',
  runPromptTests: 'convai.runPromptTests',
  cleanTrials: 'convai.cleanTrials',
  runAffectedTests: 'convai.runAffectedTests',
  newPromptTestSuite: 'convai.newPromptTestSuite',
  saveAsTestCase: 'convai.saveAsTestCase',
  labelCall: 'convai.labelCall',
  openCallTranscript: 'convai.openCallTranscript',
  continueConversation: 'convai.continueConversation',
  saveAsConversationCase: 'convai.saveAsConversationCase',
  showFlowMap: 'convai.showFlowMap',
  showVariantLab: 'convai.showVariantLab',
  applyVariant: 'convai.applyVariant',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/**
 * A call through `executeCommand(id, { ... })` passes a plain argument object;
 * menus pass tree nodes or URIs, and the palette passes nothing.
 */
export function isProgrammatic(arg: unknown): arg is Record<string, unknown> {
  if (typeof arg !== 'object' || arg === null) return false;
  const proto: unknown = Object.getPrototypeOf(arg);
  return proto === Object.prototype || proto === null;
}

/**
 * A command's two ways in, around one operation: a user's (palette, menu, keybinding), which asks for what it lacks
 * and shows progress and the outcome, and a program's (`executeCommand(id, { … })`), which takes its arguments as
 * given and shows nothing. Which one a call takes is decided here, once.
 */
export interface CommandShells<T> {
  interactive: (arg: unknown, ...rest: unknown[]) => Promise<T | undefined>;
  programmatic: (args: Record<string, unknown>) => Promise<T | undefined>;
}

type Handler = (arg: unknown, ...rest: unknown[]) => unknown;

/**
 * Registers a command behind one wrapper. A programmatic caller gets the
 * rejection and sees nothing; a user sees the failure with "Show Log" (and
 * "Set Token" for a 401), and the command resolves.
 */
export function registerCommand<T>(log: Log, id: CommandId, command: Handler | CommandShells<T>): vscode.Disposable {
  const logger = log.for('commands');
  const handler: Handler =
    typeof command === 'function'
      ? command
      : (arg, ...rest) => (isProgrammatic(arg) ? command.programmatic(arg) : command.interactive(arg, ...rest));
  return vscode.commands.registerCommand(id, async (arg: unknown, ...rest: unknown[]) => {
    try {
      return await handler(arg, ...rest);
    } catch (error) {
      logger.error(error instanceof Error ? error : String(error));
      if (isProgrammatic(arg)) throw error;
      showFailure(log, error);
      return undefined;
    }
  });
}
