// Palette commands. Each one asks the server through workspace/executeCommand; the
// server applies its edits with workspace/applyEdit, so the commands only pick arguments
// and report results. Ids differ from the server's command ids, which vscode-languageclient
// registers itself for code actions.
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { ClientHost } from './extension';
import { isCharterPath } from './selector';
import { criteriaOf, renderStatusMarkdown, StatusCriterion } from './status';
import { becausePrompt, orderForPick, valAtLine } from './vals';

/** The server's workspace/executeCommand ids. */
export const ServerCommand = {
  interviewNext: 'charter.interview.next',
  interviewSkip: 'charter.interview.skip',
  interviewFinish: 'charter.interview.finish',
  status: 'charter.status',
  recordEvidence: 'charter.recordEvidence',
} as const;

/** The interview engine's response (spec §2), as far as the commands use it. */
interface InterviewResponse {
  type?: string;
  next_question?: string;
  message?: string;
  metadata?: { question_number?: number; total_questions?: number };
}

export function registerCommands(ctx: vscode.ExtensionContext, host: ClientHost): void {
  const run = async <T>(command: string, args: unknown[]): Promise<T | undefined> => {
    const client = await host.get();
    if (!client) {
      return undefined; // host already told the user why
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Charter: ${command} failed: ${msg}`);
      return undefined;
    }
  };

  const interview = (command: string, verb: string) => async () => {
    const doc = await pickCharterMd();
    if (!doc) {
      return;
    }
    const client = await host.get();
    if (!client) {
      return;
    }
    const uri = client.code2ProtocolConverter.asUri(doc.uri);
    const res = await run<InterviewResponse>(command, [{ uri }]);
    if (res) {
      await reportInterview(res, doc, verb);
    }
  };

  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg('charter-lsp.askNextQuestion', interview(ServerCommand.interviewNext, 'ask'));
  reg('charter-lsp.skipQuestion', interview(ServerCommand.interviewSkip, 'skip'));
  reg('charter-lsp.finishInterview', interview(ServerCommand.interviewFinish, 'finish'));
  reg('charter-lsp.restartServer', () => host.restart());
  reg('charter-lsp.showOutput', () => host.output.show());

  let panel: vscode.WebviewPanel | undefined;
  reg('charter-lsp.showStatus', async () => {
    const args = await statusArgs(host);
    if (!args) {
      return;
    }
    const status = await run<unknown>(ServerCommand.status, args);
    if (status === undefined) {
      return;
    }
    const markdown = renderStatusMarkdown(status);
    panel ??= createStatusPanel(() => (panel = undefined));
    panel.webview.html = await statusHtml(markdown);
    panel.reveal(undefined, true);
  });

  reg('charter-lsp.recordEvidence', async (preset?: unknown) => {
    const args = await statusArgs(host);
    if (!args) {
      return;
    }
    const status = await run<unknown>(ServerCommand.status, args);
    const vals = criteriaOf(status);
    const editor = vscode.window.activeTextEditor;
    const current = editor ? valAtLine(editor.document.getText().split(/\r?\n/), editor.selection.active.line) : undefined;
    const p = (typeof preset === 'object' && preset !== null ? preset : {}) as { criterionId?: string; outcome?: string };

    let val: StatusCriterion | undefined = vals.find((v) => v.id === p.criterionId);
    if (!val) {
      if (vals.length === 0) {
        void vscode.window.showWarningMessage('Charter: no VALs found — open a .pi/charters/<id>/criteria.md first.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        orderForPick(vals, current).map((v) => ({
          label: v.id,
          description: [v.outcome ?? 'no evidence', v.verifier].filter(Boolean).join(' · '),
          detail: v.charterId ? `charter ${v.charterId}${v.title ? ' — ' + v.title : ''}` : v.title,
          val: v,
        })),
        { title: 'Record evidence (1/3): which VAL?', placeHolder: 'VAL id', matchOnDescription: true },
      );
      if (!picked) {
        return;
      }
      val = picked.val;
    }

    let outcome = p.outcome;
    if (outcome !== 'pass' && outcome !== 'fail' && outcome !== 'partial') {
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'pass', description: 'the behaviour holds' },
          { label: 'fail', description: 'the behaviour does not hold' },
          { label: 'partial', description: 'holds in part' },
        ],
        { title: `Record evidence (2/3): outcome for ${val.id}` },
      );
      if (!picked) {
        return;
      }
      outcome = picked.label;
    }

    const summary = await vscode.window.showInputBox({
      title: `Record evidence (3/3): ${outcome} for ${val.id}`,
      prompt: 'One line: what was checked and what was seen',
      validateInput: (s) => (s.trim() === '' ? 'A summary is required' : undefined),
    });
    if (summary === undefined) {
      return;
    }

    let because: string | undefined;
    const need = becausePrompt(val);
    if (need !== 'none') {
      because = await vscode.window.showInputBox({
        title: `Why is this evidence enough? (${need === 'required' ? 'required for manual VALs' : 'needed for manual VALs; may be empty otherwise'})`,
        validateInput: (s) => (need === 'required' && s.trim() === '' ? 'Manual evidence needs a reason' : undefined),
      });
      if (because === undefined) {
        return;
      }
      because = because.trim() || undefined;
    }

    const uri = await criteriaUri(host, val);
    const res = await run<{ path?: string }>(ServerCommand.recordEvidence, [
      { uri, criterionId: val.id, outcome, summary: summary.trim(), ...(because ? { because } : {}) },
    ]);
    if (res) {
      await saveRecordedFiles(uri);
      const where = typeof res.path === 'string' ? ` in ${vscode.workspace.asRelativePath(res.path)}` : '';
      void vscode.window.showInformationMessage(`Charter: recorded ${outcome} for ${val.id}${where}.`);
    }
  });
}

/** The charter.md to run the interview on: the active one, else the only one, else a pick. */
async function pickCharterMd(): Promise<vscode.TextDocument | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (active && /(^|[\\/])charter\.md$/i.test(active.uri.fsPath) && !/[\\/]\.pi[\\/]charters[\\/]/.test(active.uri.fsPath)) {
    return active;
  }
  const found = await vscode.workspace.findFiles('**/{charter,Charter,CHARTER}.md', '{**/node_modules/**,**/.pi/**}', 50);
  if (found.length === 0) {
    void vscode.window.showWarningMessage('Charter: open an rp1 charter.md (or create an empty one) to run the interview.');
    return undefined;
  }
  const uri =
    found.length === 1
      ? found[0]
      : (await vscode.window.showQuickPick(found.map((u) => ({ label: vscode.workspace.asRelativePath(u), u })), { title: 'Which charter?' }))?.u;
  if (!uri) {
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  return doc;
}

async function reportInterview(res: InterviewResponse, doc: vscode.TextDocument, verb: string): Promise<void> {
  switch (res.type) {
    case 'next_question': {
      // Put the cursor where the answer goes: the **Answer**: line after the question.
      const editor = await vscode.window.showTextDocument(doc);
      const lines = doc.getText().split(/\r?\n/);
      const q = res.metadata?.question_number;
      let start = q ? lines.findIndex((l) => new RegExp(`^###\\s+Q${q}\\b`).test(l)) : -1;
      if (start < 0 && res.next_question) {
        start = lines.findIndex((l) => l.includes(res.next_question!.slice(0, 40)));
      }
      const answer = start < 0 ? -1 : lines.findIndex((l, i) => i > start && /^\*\*Answer\*\*:/.test(l));
      if (answer >= 0) {
        const pos = new vscode.Position(answer, lines[answer].length);
        editor.selection = new vscode.Selection(pos, pos);
        editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
      break;
    }
    case 'success':
      void vscode.window.showInformationMessage(
        verb === 'finish' ? 'Charter: interview finished; the sections were written.' : `Charter: ${res.message ?? 'the interview is complete.'} Run "Charter: Finish interview" to write the sections.`,
      );
      break;
    case 'skip':
      void vscode.window.showInformationMessage(`Charter: skipped — ${res.message ?? 'already covered'}.`);
      break;
    case 'error':
      void vscode.window.showErrorMessage(`Charter: ${res.message ?? 'the interview could not continue.'}`);
      break;
    default:
      if (res.message) {
        void vscode.window.showInformationMessage(`Charter: ${res.message}`);
      }
  }
}

/** charter.status arguments: the active charter file when there is one, else the whole workspace. */
async function statusArgs(host: ClientHost): Promise<unknown[] | undefined> {
  const client = await host.get();
  if (!client) {
    return undefined;
  }
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && doc.uri.scheme === 'file' && isCharterPath(doc.uri.fsPath) && /[\\/]\.pi[\\/]charters[\\/]/.test(doc.uri.fsPath)) {
    return [{ uri: client.code2ProtocolConverter.asUri(doc.uri) }];
  }
  return [];
}

/** The criteria.md that defines a VAL: the active editor's charter if it is the VAL's, else found by charter id. */
async function criteriaUri(host: ClientHost, val: StatusCriterion): Promise<string | undefined> {
  const client = await host.get();
  const doc = vscode.window.activeTextEditor?.document;
  const toString = (u: vscode.Uri) => (client ? client.code2ProtocolConverter.asUri(u) : u.toString());
  if (doc && /[\\/]\.pi[\\/]charters[\\/]/.test(doc.uri.fsPath) && (!val.charterId || doc.uri.fsPath.includes(val.charterId))) {
    return toString(doc.uri);
  }
  const pattern = `**/.pi/charters/${val.charterId ?? '*'}/criteria.md`;
  const found = await vscode.workspace.findFiles(pattern, '**/node_modules/**', 1);
  return found[0] ? toString(found[0]) : undefined;
}

/**
 * Saves what the server's record edit left unsaved: the new evidence.json and the updated
 * criterion-state.json of that charter. Recording is an explicit action; leaving the
 * evidence dirty would let the register and the state disagree on disk.
 */
async function saveRecordedFiles(criteriaUri: string | undefined): Promise<void> {
  if (!criteriaUri) {
    return;
  }
  const dir = path.dirname(vscode.Uri.parse(criteriaUri).fsPath);
  const recorded = (d: vscode.TextDocument) => {
    const f = d.uri.fsPath;
    return f === path.join(dir, 'criterion-state.json') || (f.startsWith(path.join(dir, 'work') + path.sep) && path.basename(f) === 'evidence.json');
  };
  await Promise.all(vscode.workspace.textDocuments.filter((d) => d.isDirty && recorded(d)).map((d) => d.save()));
}

function createStatusPanel(onDispose: () => void): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel('charterStatus', 'Charter status', vscode.ViewColumn.Beside, {
    enableScripts: false,
  });
  panel.onDidDispose(onDispose);
  return panel;
}

/** Renders with VS Code's own markdown engine when available, else shows the markdown as text. */
async function statusHtml(markdown: string): Promise<string> {
  let body: string;
  try {
    body = await vscode.commands.executeCommand<string>('markdown.api.render', markdown);
  } catch {
    body = `<pre>${markdown.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</pre>`;
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--vscode-panel-border); padding: 2px 8px; text-align: left; }
code { font-family: var(--vscode-editor-font-family); }
</style></head><body class="charter-status">${body}</body></html>`;
}
