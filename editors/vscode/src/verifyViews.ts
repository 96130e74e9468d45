// Registers what running criteria' commands adds to VS Code: the Charter Verify output
// channel and palette command, the Testing view's Charters controller, the Charters tree.
import * as vscode from 'vscode';
import { ChartersTree } from './chartersTree';
import type { ClientHost } from './host';
import { ChartersTests } from './testing';
import { registerVerifyCommand, Verifier } from './verify';

export function registerVerify(ctx: vscode.ExtensionContext, host: ClientHost): void {
  const verifier = new Verifier(host);
  const tests = new ChartersTests(verifier);
  const tree = new ChartersTree(verifier);
  ctx.subscriptions.push(verifier, tests, tree, vscode.window.registerTreeDataProvider('charter.charters', tree));
  registerVerifyCommand(ctx, verifier);
  ctx.subscriptions.push(
    vscode.commands.registerCommand('charter-lsp.refreshCharters', async () => {
      await host.get();
      await Promise.all([tree.refresh(), tests.refresh()]);
    }),
  );
}
