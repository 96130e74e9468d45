// The Charter extension: starts charter-lsp for charter files and adds palette commands.
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { ClientHost } from './host';
import { registerVerify } from './verifyViews';
import { CHARTER_FILE_GLOBS } from './generated/charterFiles';
import { CHARTER_DOCUMENTS } from './selector';

let host: ClientHost | undefined;

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  host = new ClientHost(ctx);
  const h = host;
  ctx.subscriptions.push(h.output, { dispose: () => void h.stop() });
  registerCommands(ctx, h);
  registerVerify(ctx, h);

  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The interview agent goes in initializationOptions: a new one needs a new server.
      if (e.affectsConfiguration('charter.server.path') || e.affectsConfiguration('charter.interviewAgent') || e.affectsConfiguration('charter.interviewAgentTimeout')) {
        void h.restart();
      }
    }),
    // Trust granted: the server applies the project file in full from now on. (Revoking
    // trust reloads the window, which starts the server restricted.)
    vscode.workspace.onDidGrantWorkspaceTrust(() => void h.settingsChanged()),
  );

  // onLanguage:markdown activates us for any markdown file; start the server only once a
  // charter file is open or the workspace holds one.
  const isCharterDoc = (d: vscode.TextDocument) => vscode.languages.match(CHARTER_DOCUMENTS, d) > 0;
  if (vscode.workspace.textDocuments.some(isCharterDoc) || (await workspaceHasCharters())) {
    void h.get();
    return;
  }
  const sub = vscode.workspace.onDidOpenTextDocument((d) => {
    if (isCharterDoc(d)) {
      sub.dispose();
      void h.get();
    }
  });
  ctx.subscriptions.push(sub);
}

async function workspaceHasCharters(): Promise<boolean> {
  if (!vscode.workspace.workspaceFolders?.length) {
    return false;
  }
  for (const p of CHARTER_FILE_GLOBS) {
    const found = await vscode.workspace.findFiles(p, '**/node_modules/**', 1);
    if (found.length > 0) {
      return true;
    }
  }
  return false;
}

export async function deactivate(): Promise<void> {
  await host?.stop();
}
