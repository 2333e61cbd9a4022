// A minimal VS Code client for the Rulewright language server (`rulewright lsp`, on stdio).
// Install: `npm install` in this folder, then copy or link the folder into ~/.vscode/extensions/
// (or run it with "Run Extension" from VS Code). See docs/guides/editors.md.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration("rulewright");
  const server = { command: cfg.get("command", "rulewright"), args: ["lsp"] };
  client = new LanguageClient("rulewright", "Rulewright", server, {
    documentSelector: [{ scheme: "file", language: "yaml", pattern: cfg.get("files", "**/*.yaml") }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
