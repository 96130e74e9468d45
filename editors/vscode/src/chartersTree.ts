// The Charters view in the explorer: each charter with its lifecycle and progress, its
// completion blockers and its next actions, as the server reports them (charter.status);
// selecting one opens the file at the item.
import * as vscode from 'vscode';
import { ActionNode, BlockerNode, CharterNode, chartersOf } from './charters';
import type { Verifier } from './verify';

type Node =
  | { kind: 'charter'; c: CharterNode }
  | { kind: 'group'; c: CharterNode; group: 'blockers' | 'actions' }
  | { kind: 'blocker'; c: CharterNode; b: BlockerNode }
  | { kind: 'action'; c: CharterNode; a: ActionNode };

export class ChartersTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private charters: CharterNode[] = [];
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly verifier: Verifier) {
    this.subs.push(verifier.onDidChange(() => void this.refresh()), this.changed);
  }

  async refresh(): Promise<void> {
    const report = await this.verifier.charters().catch(() => undefined);
    if (report) {
      this.charters = chartersOf(report);
      this.changed.fire();
    }
  }

  getChildren(n?: Node): Node[] {
    if (!n) {
      return this.charters.map((c) => ({ kind: 'charter', c }));
    }
    switch (n.kind) {
      case 'charter':
        return [
          ...(n.c.blockers.length ? [{ kind: 'group' as const, c: n.c, group: 'blockers' as const }] : []),
          ...(n.c.nextActions.length ? [{ kind: 'group' as const, c: n.c, group: 'actions' as const }] : []),
        ];
      case 'group':
        return n.group === 'blockers' ? n.c.blockers.map((b) => ({ kind: 'blocker', c: n.c, b })) : n.c.nextActions.map((a) => ({ kind: 'action', c: n.c, a }));
    }
    return [];
  }

  getTreeItem(n: Node): vscode.TreeItem {
    const open = (file: string, line = 0): vscode.Command => ({
      title: 'Open',
      command: 'vscode.open',
      arguments: [vscode.Uri.file(file), { selection: new vscode.Range(line, 0, line, 0) }],
    });
    switch (n.kind) {
      case 'charter': {
        const item = new vscode.TreeItem(n.c.label, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${n.c.lifecycle || 'no state'} · ${n.c.pass}/${n.c.total} pass`;
        item.tooltip = n.c.key;
        item.contextValue = 'charter';
        item.command = open(n.c.file);
        item.iconPath = new vscode.ThemeIcon(n.c.total > 0 && n.c.pass === n.c.total ? 'pass' : 'checklist');
        return item;
      }
      case 'group': {
        const blockers = n.group === 'blockers';
        const item = new vscode.TreeItem(blockers ? `Blockers (${n.c.blockers.length})` : `Next actions (${n.c.nextActions.length})`, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon(blockers ? 'warning' : 'arrow-right');
        return item;
      }
      case 'blocker': {
        const item = new vscode.TreeItem(n.b.message);
        const cr = n.b.criterion;
        item.command = cr ? open(cr.file, cr.line) : open(n.c.file);
        item.iconPath = new vscode.ThemeIcon('error');
        return item;
      }
      case 'action': {
        const item = new vscode.TreeItem(n.a.hint);
        item.tooltip = [n.a.hint, n.a.cli && `Run: ${n.a.cli}`, n.a.editor && `Editor: ${n.a.editor}`].filter(Boolean).join('\n');
        item.description = n.a.cli;
        item.command = open(n.c.file);
        return item;
      }
    }
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}
