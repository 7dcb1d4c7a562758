// @ts-check
// Development helper of `npm start`, never shipped: the token reaches SecretStorage through the
// extension's public command, the way a user's own script would add it. For npm start (not the UI tests,
// which also load it) the workbench then shows the ConvAI view, and the first time (no marker file yet) the
// extension's walkthrough.
const fs = require('node:fs');
const vscode = require('vscode');

const EXTENSION = 'convai.convai-config';

exports.activate = async function activate() {
  const raw = process.env.CONVAI_START_CONNECTION;
  if (!raw) return;
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes('convai.addConnection')) return;
  try {
    await vscode.commands.executeCommand('convai.addConnection', JSON.parse(raw));
  } catch (error) {
    void vscode.window.showWarningMessage(
      `npm start could not add the connection "local": ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const marker = process.env.CONVAI_START_WALKTHROUGH_MARKER;
  if (marker) await land(marker);
};

/**
 * The ConvAI view; the walkthrough too while `marker` does not exist, which it then writes.
 * @param {string} marker
 */
async function land(marker) {
  await vscode.commands.executeCommand('workbench.view.extension.convai');
  if (fs.existsSync(marker)) return;
  /** @type {{ id: string }[] | undefined} */
  const walkthroughs = vscode.extensions.getExtension(EXTENSION)?.packageJSON.contributes?.walkthroughs;
  const walkthrough = walkthroughs?.[0]?.id;
  if (!walkthrough) return;
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION}#${walkthrough}`, false);
  fs.writeFileSync(
    marker,
    `The walkthrough ${EXTENSION}#${walkthrough} was shown by npm start; delete this file to see it again.\n`,
  );
}
