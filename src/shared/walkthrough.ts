import * as vscode from 'vscode';

/** The Get Started walkthrough as VS Code names it: `publisher.name#id` (package.json, contributes.walkthroughs). */
const WALKTHROUGH = 'convai.convai-config#gettingStarted';

/** The walkthrough's steps, which the extension ticks off itself when the user has done what they ask. */
export type WalkthroughStep = 'addConnection' | 'browseTree' | 'editPrompt' | 'testPrompt';

/**
 * Ticks a step of the walkthrough off, whether or not the walkthrough has been shown. Completion events alone
 * cannot: VS Code's walkthrough service starts listening only when something first asks for it in a window (the
 * Welcome page), so what was done before that was never heard, and an `onContext:` key already true when it starts
 * never ticks its step in that window. VS Code's Mark Step Complete writes the tick into the walkthrough's stored
 * progress instead, and leaves a step already done as it is. The steps' `onEvent:` completion events, which only
 * VS Code's own code fires, are there so that pressing a step's button does not tick it.
 */
export function walkthroughStepDone(step: WalkthroughStep): void {
  // The first mark in a window starts the service, which registers the walkthrough a moment later: VS Code stores the
  // tick, then fails to find the step to redraw. The tick is kept, so the failure says nothing.
  vscode.commands.executeCommand('welcome.markStepComplete', `${WALKTHROUGH}#${step}`).then(undefined, () => undefined);
}
