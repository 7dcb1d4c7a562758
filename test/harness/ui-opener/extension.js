// @ts-check
// Test-only, loaded by the UI tests' workbench (test/harness/ui-workbench.ts), never shipped. A test that only needs a
// file open (not the user's way there) writes `<n>.open` holding the file's URI into the folder named by
// CONVAI_UI_OPEN_REQUESTS; this opens it in the active editor group, with the focus, and answers with `<n>.opened`, or
// `<n>.failed` holding the reason. Quick Open found a file written a moment before only once its search had caught up.
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

/** @param {vscode.ExtensionContext} context */
exports.activate = function activate(context) {
  const folder = process.env.CONVAI_UI_OPEN_REQUESTS;
  if (!folder) return;
  /** @type {Set<string>} */
  const taken = new Set();
  /** @param {string} request */
  const open = async (request) => {
    const base = path.join(folder, request.slice(0, -'.open'.length));
    try {
      const uri = vscode.Uri.parse(fs.readFileSync(path.join(folder, request), 'utf8').trim());
      await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: false });
      fs.writeFileSync(`${base}.opened`, '');
    } catch (error) {
      fs.writeFileSync(`${base}.failed`, error instanceof Error ? error.message : String(error));
    }
  };
  const look = () => {
    for (const name of fs.readdirSync(folder)) {
      if (!name.endsWith('.open') || taken.has(name)) continue;
      taken.add(name);
      void open(name);
    }
  };
  const watcher = fs.watch(folder, look);
  context.subscriptions.push({ dispose: () => watcher.close() });
  // Requests written before it started.
  look();
};
