// Palette commands. Each one asks the server through workspace/executeCommand; the
// server applies its edits with workspace/applyEdit, so the commands only pick arguments
// and report results. Ids differ from the server's command ids, which vscode-languageclient
// registers itself for code actions.
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { ClientHost } from './host';
import type { Report, VALAt } from './generated/status';
import { isOutcome, OUTCOMES } from './generated/vocabulary';
import { CHARTER_DOCUMENTS } from './selector';
import {
  chartersRequest,
  CommandRequest,
  markdownOf,
  orderForPick,
  PickableVAL,
  pickableOf,
  ServerCommand,
  statusRequest,
  valAtRequest,
  valByIdRequest,
  valsOf,
} from './server';
import { preformatted, statusPage } from './statusView';
import { answerRequest, buttonRequest, emptyAnswerHint, isTurn, startRequest, Turn, TurnAction } from './conversation';

/** The interview engine's response (spec §2), as far as the commands use it. */
interface InterviewResponse {
  type?: string;
  next_question?: string;
  message?: string;
  metadata?: { question_number?: number; total_questions?: number };
}

export function registerCommands(ctx: vscode.ExtensionContext, host: ClientHost): void {
  const request = async <T>(req: CommandRequest): Promise<T | undefined> => {
    const client = await host.get();
    if (!client) {
      return undefined; // host already told the user why
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, req)) as T;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Charter: ${req.command} failed: ${msg}`);
      return undefined;
    }
  };
  const run = <T>(command: string, args: unknown[]) => request<T>({ command, arguments: args });
  /** The active editor's document as the server names it, when it is a charter file. */
  const activeCharterUri = async (): Promise<string | undefined> => {
    const doc = vscode.window.activeTextEditor?.document;
    const client = await host.get();
    return doc && client && vscode.languages.match(CHARTER_DOCUMENTS, doc) > 0 ? client.code2ProtocolConverter.asUri(doc.uri) : undefined;
  };

  /** The charter.md to interview (pickCharterMd's) and its URI as the server names it. */
  const charterToInterview = async (): Promise<{ doc: vscode.TextDocument; uri: string } | undefined> => {
    const doc = await pickCharterMd();
    const client = doc && (await host.get());
    return doc && client ? { doc, uri: client.code2ProtocolConverter.asUri(doc.uri) } : undefined;
  };

  const interview = (command: string, verb: string) => async () => {
    const target = await charterToInterview();
    const res = target && (await run<InterviewResponse>(command, [{ uri: target.uri }]));
    if (target && res) {
      await reportInterview(res, target.doc, verb);
    }
  };

  // The interview as a conversation: each prompt is the server's turn (title, question,
  // buttons); Enter sends the answer, a button its choice, Esc stops and leaves the charter
  // as it is (a pending question stays in the scratch pad for later).
  const converse = async () => {
    const target = await charterToInterview();
    if (!target) {
      return;
    }
    let turn = await request<unknown>(startRequest(target.uri));
    while (isTurn(turn) && !turn.done) {
      const choice = await askTurn(turn);
      if (!choice) {
        return; // Esc
      }
      const req = 'button' in choice ? buttonRequest(choice.button) : answerRequest(turn, choice.text);
      if (!req) {
        return;
      }
      turn = await request<unknown>(req);
    }
    if (isTurn(turn) && turn.message) {
      const show =
        turn.level === 'error' ? vscode.window.showErrorMessage : turn.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`Charter: ${turn.message}`);
    }
  };

  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg('charter-lsp.interview', converse);
  reg('charter-lsp.askNextQuestion', converse);
  reg('charter-lsp.skipQuestion', interview(ServerCommand.interviewSkip, 'skip'));
  reg('charter-lsp.finishInterview', interview(ServerCommand.interviewFinish, 'finish'));
  reg('charter-lsp.restartServer', () => host.restart());
  reg('charter-lsp.showOutput', () => host.output.show());

  let panel: vscode.WebviewPanel | undefined;
  reg('charter-lsp.showStatus', async () => {
    // The server renders; the view shows. Any file asks for its charter, or all of them.
    const report = await request<Report>(statusRequest(await activeCharterUri()));
    if (report === undefined) {
      return;
    }
    panel ??= createStatusPanel(() => (panel = undefined));
    panel.webview.html = statusPage(await renderMarkdown(markdownOf(report)));
    panel.reveal(undefined, true);
  });

  reg('charter-lsp.recordEvidence', async (preset?: unknown) => {
    const p = (typeof preset === 'object' && preset !== null ? preset : {}) as { criterionId?: string; outcome?: string };
    const editor = vscode.window.activeTextEditor;
    const uri = await activeCharterUri();
    // The server says which VAL the cursor is in (and what recording it needs).
    const current = uri && editor ? await request<VALAt | null>(valAtRequest(uri, editor.selection.active)) : undefined;

    let val: PickableVAL | undefined = current && (!p.criterionId || p.criterionId === current.criterionId) ? pickableOf(current) : undefined;
    let becauseRequired = current?.becauseRequired;
    if (!val || !p.criterionId) {
      const vals = orderForPick(valsOf(await request<Report>(chartersRequest(uri))), current);
      val = vals.find((v) => v.criterionId === p.criterionId);
      if (!val) {
        if (vals.length === 0) {
          void vscode.window.showWarningMessage('Charter: no VALs found — open a .pi/charters/<id>/criteria.md first.');
          return;
        }
        const picked = await vscode.window.showQuickPick(
          vals.map((v) => ({
            label: v.criterionId,
            description: [v.outcome || 'no evidence', v.verifier].join(' · '),
            detail: `charter ${v.charterId}${v.title ? ' — ' + v.title : ''}`,
            val: v,
          })),
          { title: 'Record evidence (1/3): which VAL?', placeHolder: 'VAL id', matchOnDescription: true },
        );
        if (!picked) {
          return;
        }
        val = picked.val;
      }
      if (!current || current.criterionId !== val.criterionId || current.dir !== val.dir) {
        const info = await request<VALAt | null>(valByIdRequest(folderUri(val.dir), val.criterionId));
        if (!info) {
          return; // the register changed under us; the error (if any) was shown
        }
        becauseRequired = info.becauseRequired;
      }
    }

    let outcome = p.outcome;
    if (!isOutcome(outcome)) {
      const picked = await vscode.window.showQuickPick(
        OUTCOMES.map((o) => ({ label: o.outcome, description: o.meaning })),
        { title: `Record evidence (2/3): outcome for ${val.criterionId}` },
      );
      if (!picked) {
        return;
      }
      outcome = picked.label;
    }

    const summary = await vscode.window.showInputBox({
      title: `Record evidence (3/3): ${outcome} for ${val.criterionId}`,
      prompt: 'One line: what was checked and what was seen',
      validateInput: (s) => (s.trim() === '' ? 'A summary is required' : undefined),
    });
    if (summary === undefined) {
      return;
    }

    let because: string | undefined;
    if (becauseRequired) {
      because = await vscode.window.showInputBox({
        title: `Why is this evidence enough? (required: ${val.criterionId} is verified by a person)`,
        validateInput: (s) => (s.trim() === '' ? 'Manual evidence needs a reason' : undefined),
      });
      if (because === undefined) {
        return;
      }
      because = because.trim();
    }

    const res = await run<{ path?: string }>(ServerCommand.recordEvidence, [
      { uri: folderUri(val.dir), criterionId: val.criterionId, outcome, summary: summary.trim(), ...(because ? { because } : {}) },
    ]);
    if (res) {
      await saveRecordedFiles(val.dir);
      const where = typeof res.path === 'string' ? ` in ${vscode.workspace.asRelativePath(res.path)}` : '';
      void vscode.window.showInformationMessage(`Charter: recorded ${outcome} for ${val.criterionId}${where}.`);
    }
  });
}

/** Icons for the server's buttons, by their id; the words are the server's. */
const buttonIcon: Record<string, string> = { skip: 'debug-step-over', finish: 'check' };

/**
 * Shows one turn of the interview: an input box titled and worded as the server says, with
 * its buttons. Resolves to what the user typed, the button pressed, or undefined on Esc.
 */
function askTurn(turn: Turn): Promise<{ text: string } | { button: TurnAction } | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = turn.title;
    box.prompt = turn.question;
    box.placeholder = turn.placeholder;
    box.ignoreFocusOut = true;
    const buttons = turn.buttons.map((b) => ({
      iconPath: new vscode.ThemeIcon(buttonIcon[b.id] ?? 'circle-outline'),
      tooltip: `${b.label}: ${b.tooltip}`,
      action: b,
    }));
    box.buttons = buttons;
    let settled = false;
    const settle = (v: { text: string } | { button: TurnAction } | undefined) => {
      if (!settled) {
        settled = true;
        resolve(v);
        box.hide();
      }
    };
    box.onDidTriggerButton((b) => settle({ button: (b as (typeof buttons)[number]).action }));
    box.onDidChangeValue(() => (box.validationMessage = undefined));
    box.onDidAccept(() => {
      if (box.value.trim() === '') {
        box.validationMessage = emptyAnswerHint(turn);
        return;
      }
      settle({ text: box.value });
    });
    box.onDidHide(() => {
      settle(undefined);
      box.dispose();
    });
    box.show();
  });
}

/** The file: URI of a folder path the server sent. */
function folderUri(dir: string): string {
  return vscode.Uri.file(dir).toString();
}

/** The charter.md to run the interview on: the active one, else the only one, else a pick. */
async function pickCharterMd(): Promise<vscode.TextDocument | undefined> {
  // Only which file to offer: the server refuses, with a message, one that is no rp1 charter.
  const active = vscode.window.activeTextEditor?.document;
  if (active && /(^|[\\/])charter\.md$/i.test(active.uri.fsPath) && !/[\\/]\.(pi[\\/])?charters[\\/]/.test(active.uri.fsPath)) {
    return active;
  }
  const found = await vscode.workspace.findFiles('**/{charter,Charter,CHARTER}.md', '{**/node_modules/**,**/.pi/**,**/.charters/**}', 50);
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

/**
 * Saves what the server's record edit left unsaved: the new evidence.json and the updated
 * criterion-state.json of that charter. Recording is an explicit action; leaving the
 * evidence dirty would let the register and the state disagree on disk.
 */
async function saveRecordedFiles(dir: string): Promise<void> {
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

/** Markdown to HTML with VS Code's own markdown engine, else shown as text. */
async function renderMarkdown(markdown: string): Promise<string> {
  try {
    return await vscode.commands.executeCommand<string>('markdown.api.render', markdown);
  } catch {
    return preformatted(markdown);
  }
}
