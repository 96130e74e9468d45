// The Testing view: every criterion of every charter is a test item (charter → milestone →
// criterion), described with its latest recorded outcome (stale marked) and placed where it is
// written; "Run" asks the server to run its command (charter.verify: the server shows the
// command and asks first). Everything shown comes from the server's charter.status.
import * as vscode from 'vscode';
import { CharterNode, chartersOf, CriterionNode, criteriaOf } from './charters';
import type { Verifier } from './verify';
import { Outcome } from './generated/vocabulary';

export class ChartersTests implements vscode.Disposable {
  private readonly ctrl = vscode.tests.createTestController('charter', 'Charters');
  private readonly nodes = new Map<string, CriterionNode>();
  private refreshing: Promise<void> | undefined;

  constructor(private readonly verifier: Verifier) {
    this.ctrl.refreshHandler = () => this.refresh();
    this.ctrl.createRunProfile('Run', vscode.TestRunProfileKind.Run, (req, token) => this.run(req, token), true);
    verifier.onDidChange(() => void this.refresh());
  }

  /** Rebuilds the items from the server's status, then shows each one's recorded outcome. */
  refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const report = await this.verifier.charters().catch(() => undefined);
    if (!report) {
      return;
    }
    const charters = chartersOf(report);
    this.nodes.clear();
    this.ctrl.items.replace(charters.map((c) => this.charterItem(c)));
    // A run that is not kept shows what the charters record now: the icons of the view.
    const shown = this.ctrl.createTestRun(new vscode.TestRunRequest(), 'Recorded evidence', false);
    for (const c of charters) {
      for (const n of criteriaOf(c)) {
        const item = this.find(n.key);
        if (!item) {
          continue;
        }
        if (n.outcome === Outcome.Pass && !n.stale) {
          shown.passed(item);
        } else if (n.outcome === Outcome.Fail || n.outcome === Outcome.Partial || n.stale) {
          shown.failed(item, new vscode.TestMessage(n.stale ? `stale: ${n.status}` : n.summary || n.status));
        }
      }
    }
    shown.end();
  }

  private charterItem(c: CharterNode): vscode.TestItem {
    const item = this.ctrl.createTestItem(c.key, c.label, vscode.Uri.file(c.file));
    item.description = `${c.lifecycle || 'no state'} · ${c.pass}/${c.total} pass`;
    for (const n of c.children) {
      if (n.kind === 'milestone') {
        const m = this.ctrl.createTestItem(n.key, n.label, vscode.Uri.file(c.file));
        m.description = `${n.pass}/${n.total} pass`;
        n.criteria.forEach((cr) => m.children.add(this.criterionItem(cr)));
        item.children.add(m);
      } else {
        item.children.add(this.criterionItem(n));
      }
    }
    return item;
  }

  private criterionItem(n: CriterionNode): vscode.TestItem {
    this.nodes.set(n.key, n);
    const item = this.ctrl.createTestItem(n.key, `${n.criterionId} — ${n.title}`, vscode.Uri.file(n.file));
    item.range = new vscode.Range(n.line, 0, n.line, 0);
    item.description = n.verify ? n.status : `${n.status} · no command`;
    return item;
  }

  private find(key: string, items: vscode.TestItemCollection = this.ctrl.items): vscode.TestItem | undefined {
    let found: vscode.TestItem | undefined;
    items.forEach((i) => {
      found ??= i.id === key ? i : this.find(key, i.children);
    });
    return found;
  }

  private leaves(items: readonly vscode.TestItem[], exclude: readonly vscode.TestItem[]): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    const walk = (i: vscode.TestItem) => {
      if (exclude.some((x) => x.id === i.id)) {
        return;
      }
      if (this.nodes.has(i.id)) {
        out.push(i);
      }
      i.children.forEach(walk);
    };
    items.forEach(walk);
    return out;
  }

  /** Runs the criteria asked for, one after the other; Cancel stops the one running. */
  private async run(req: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const all: vscode.TestItem[] = [];
    this.ctrl.items.forEach((i) => all.push(i));
    const queue = this.leaves(req.include ?? all, req.exclude ?? []);
    const run = this.ctrl.createTestRun(req);
    for (const item of queue) {
      const n = this.nodes.get(item.id);
      if (!n || token.isCancellationRequested) {
        run.skipped(item);
        continue;
      }
      if (!n.verify) {
        run.appendOutput(`${n.criterionId} has no command to run.\r\n`, undefined, item);
        run.skipped(item);
        continue;
      }
      if (!vscode.workspace.isTrusted) {
        run.errored(item, new vscode.TestMessage('Running a criterion\'s command needs a trusted workspace: Restricted Mode runs nothing from the repository.'));
        continue;
      }
      run.started(item);
      let current: string | undefined;
      const output = this.verifier.onOutput((o) => {
        if (o.criterionId === n.criterionId) {
          current = o.run;
          run.appendOutput(o.text.replace(/\r?\n/g, '\r\n'), undefined, item);
        }
      });
      const cancel = token.onCancellationRequested(() => current && void this.verifier.cancel(current));
      try {
        const a = await this.verifier.run(vscode.Uri.file(n.file), n.criterionId, n.verify.command);
        if (!a || a.declined || a.cancelled || a.timedOut) {
          run.skipped(item);
        } else if (a.outcome === Outcome.Pass) {
          run.passed(item, a.durationMs);
        } else {
          run.failed(item, new vscode.TestMessage(`${n.verify.command} exited ${a.exitCode}`), a.durationMs);
        }
      } catch (e) {
        run.errored(item, new vscode.TestMessage(e instanceof Error ? e.message : String(e)));
      } finally {
        output.dispose();
        cancel.dispose();
      }
    }
    run.end();
  }

  dispose(): void {
    this.ctrl.dispose();
  }
}
