// @ts-check
// Development helper of `npm start`, never shipped: the token reaches SecretStorage through the
// extension's public command, the way a user's own script would add it.
const vscode = require('vscode');

exports.activate = async function activate() {
  const raw = process.env.CONVAI_START_CONNECTION;
  if (!raw) return;
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes('convai.addConnection')) return;
  try {
    await vscode.commands.executeCommand('convai.addConnection', JSON.parse(raw));
  } catch (error) {
    void vscode.window.showWarningMessage(`npm start could not add the connection "local": ${error instanceof Error ? error.message : String(error)}`);
  }
};
