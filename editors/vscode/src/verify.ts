// Running a criterion's command from the editor: the palette command, the output channel the
// runs stream to, and what the Testing view and the Charters tree use to run and to refresh.
// The server does the rest — it reads the command from the charter, shows it verbatim and asks
// before running it (a code lens or this command only asks it to), refuses in Restricted Mode,
// runs it, records the result and reports progress with a Cancel button.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { chartersOf, isRunAnswer, isRunOutput, VERIFY_OUTPUT, verifyRequest } from './charters';
import type { ClientHost } from './host';
import type { Report, RunAnswer, RunOutput } from './generated/status';
import { ActionKind, ServerCommand } from './generated/commands';
import { chartersRequest } from './server';

/** The runs of criteria' commands: their output, and a way to start, cancel and follow them. */
export class Verifier implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel('Charter Verify');
  private readonly outputs = new vscode.EventEmitter<RunOutput>();
  /** Every piece of every run's output, as the server sends it. */
  readonly onOutput = this.outputs.event;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The charters may have changed: a run ended, a charter file was saved. */
  readonly onDidChange = this.changed.event;
  private readonly shown = new Set<string>();
  private readonly subs: vscode.Disposable[] = [];
  private client: LanguageClient | undefined;
  /** The runs under way: their progress notification's report and end. */
  private readonly progress = new Map<string, { report: (message: string) => void; end: () => void }>();

  constructor(private readonly host: ClientHost) {
    this.subs.push(
      host.onDidStart((client) => this.attach(client)),
      vscode.workspace.onDidSaveTextDocument(() => this.changed.fire()),
      this.outputs,
      this.changed,
    );
    // Evidence recorded from a terminal (charter-lsp record/verify) changes criterion-state.json.
    const watcher = vscode.workspace.createFileSystemWatcher('**/{criterion-state.json,charter.md,criteria.md}');
    this.subs.push(watcher, watcher.onDidChange(() => this.changed.fire()), watcher.onDidCreate(() => this.changed.fire()));
  }

  private attach(client: LanguageClient): void {
    this.client = client;
    void vscode.commands.executeCommand('setContext', 'charter.active', true);
    this.subs.push(
      client.onNotification(VERIFY_OUTPUT, (o: unknown) => {
        if (!isRunOutput(o)) {
          return;
        }
        if (!this.shown.has(o.run)) {
          this.shown.add(o.run);
          this.output.show(true);
          this.showProgress(o);
        }
        this.output.append(o.text);
        this.outputs.fire(o);
        const last = o.text.split('\n').map((l) => l.trim()).filter(Boolean).pop();
        if (last) {
          this.progress.get(o.run)?.report(last);
        }
        if (o.done) {
          this.progress.get(o.run)?.end();
          this.progress.delete(o.run);
          void this.saveRecorded(o.recorded).finally(() => this.changed.fire());
        }
      }),
    );
    this.changed.fire();
  }

  /**
   * A notification for a run with a Cancel button (the language client shows the server's
   * progress in the status bar, where it cannot be cancelled), the last line printed as its
   * message. Cancel stops the run (window/workDoneProgress/cancel).
   */
  private showProgress(first: RunOutput): void {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Verify ${first.criterionId}`, cancellable: true },
      (p, token) =>
        new Promise<void>((resolve) => {
          token.onCancellationRequested(() => void this.cancel(first.run));
          this.progress.set(first.run, { report: (message) => p.report({ message }), end: resolve });
        }),
    );
  }

  /**
   * Every charter of the workspace, as the server reports them; undefined while no server runs
   * (the views never start one: it starts for charter files).
   */
  async charters(): Promise<Report | undefined> {
    const client = this.client;
    if (!client?.isRunning()) {
      return undefined;
    }
    return (await client.sendRequest(ExecuteCommandRequest.type, chartersRequest(undefined))) as Report;
  }

  /**
   * Asks the server to run a criterion's command: it shows the command and asks first. The
   * answer, or undefined when the server refused (it said why) or is not running.
   */
  async run(file: vscode.Uri, criterionId: string, command: string): Promise<RunAnswer | undefined> {
    const client = await this.host.get();
    if (!client) {
      return undefined;
    }
    const res = await client.sendRequest(ExecuteCommandRequest.type, verifyRequest(client.code2ProtocolConverter.asUri(file), criterionId, command));
    if (!isRunAnswer(res)) {
      return undefined;
    }
    return res;
  }

  /**
   * Saves the file a run was recorded in when that was an edit of an open document (a
   * .charters/ criterion's Status line): recording is an explicit action.
   */
  private async saveRecorded(file: string | undefined): Promise<void> {
    const doc = file ? vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file) : undefined;
    if (doc?.isDirty) {
      await doc.save();
    }
  }

  /** Stops a run (the same as the Cancel button of its progress). */
  async cancel(run: string): Promise<void> {
    const client = await this.host.get();
    await client?.sendNotification('window/workDoneProgress/cancel', { token: run });
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.output.dispose();
  }
}

/** The palette command: the criterion under the cursor (as the server names it), else a pick. */
export function registerVerifyCommand(ctx: vscode.ExtensionContext, verifier: Verifier): void {
  ctx.subscriptions.push(
    vscode.commands.registerCommand('charter-lsp.verify', async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('Charter: running a criterion\'s command needs a trusted workspace (Restricted Mode runs nothing from the repository).');
        return;
      }
      const editor = vscode.window.activeTextEditor;
      if (editor) {
        // The server's own "Run `…`" action at the cursor carries what to run.
        const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
          'vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(editor.selection.active, editor.selection.active), ActionKind.verify);
        for (const a of actions ?? []) {
          const cmd = 'command' in a && typeof a.command === 'object' ? a.command : (a as vscode.Command);
          const arg = cmd?.arguments?.[0] as { criterionId?: string; command?: string } | undefined;
          if (cmd?.command === ServerCommand.verify && arg?.criterionId && arg.command !== undefined) {
            await verifier.run(editor.document.uri, arg.criterionId, arg.command);
            return;
          }
        }
      }
      const report = await verifier.charters();
      const runnable = chartersOf(report).flatMap((c) => c.children.flatMap((n) => (n.kind === 'milestone' ? n.criteria : [n])).filter((n) => n.verify).map((n) => ({ c, n })));
      if (runnable.length === 0) {
        void vscode.window.showInformationMessage('Charter: no criterion here has a command to run (Verifier: command with a Command: line, or a .charters/ criterion\'s Command: line).');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        runnable.map(({ c, n }) => ({ label: n.criterionId, description: `${n.status} · ${n.verify?.command}`, detail: `${c.label} — ${n.title}`, n })),
        { title: 'Run the command that verifies…', matchOnDescription: true },
      );
      if (picked?.n.verify) {
        await verifier.run(vscode.Uri.file(picked.n.file), picked.n.criterionId, picked.n.verify.command);
      }
    }),
  );
}
