// The extension's status view and record flow against the real server: the built
// charter-lsp binary over stdio, driven with vscode-languageserver-protocol (the library
// VS Code's client is built on), on a copy of the editor tests' workspace. What the server
// answers goes through the extension's own code (src/server.ts, src/statusView.ts) and is
// rendered with markdown-it, the engine behind VS Code's markdown.api.render.
//   CHARTER_LSP  the server binary (default: <repo>/bin/charter-lsp; `make build`)
import { strict as assert } from 'assert';
import * as cp from 'child_process';
import * as fs from 'fs';
import MarkdownIt from 'markdown-it';
import { after, before, test } from 'node:test';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { createProtocolConnection, ProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import type { Report, VALAt } from '../src/generated/status';
import { CommandRequest, isRegister, markdownOf, orderForPick, statusRequest, valAtRequest, valByIdRequest, valsOf } from '../src/server';
import { answerRequest, buttonRequest, isTurn, startRequest, Turn } from '../src/conversation';
import { statusPage } from '../src/statusView';
import { stopServer } from './stop';

const extension = path.resolve(__dirname, '..', '..'); // out/test-server/ → editors/vscode
const binary = process.env.CHARTER_LSP || path.resolve(extension, '..', '..', 'bin', 'charter-lsp');
const criteriaRel = '.pi/charters/auth-rework/criteria.md';

let ws: string;
let server: cp.ChildProcessWithoutNullStreams;
let conn: ProtocolConnection;
let stderr = '';
// The workspace edits the server asked the client to apply, in order.
const applied: { edit: { documentChanges?: { edits: { newText: string }[] }[] } }[] = [];
const uriOf = (rel: string) => pathToFileURL(path.join(ws, rel)).href;
const execute = <T>(req: CommandRequest) => conn.sendRequest('workspace/executeCommand', req) as Promise<T>;

before(async () => {
  assert.ok(fs.existsSync(binary), `no server binary at ${binary}: run make build (or set CHARTER_LSP)`);
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'charter-vscode-server-'));
  fs.cpSync(path.resolve(extension, '..', 'e2e', 'testdata', 'workspace'), ws, { recursive: true });
  fs.chmodSync(ws, 0o755);
  server = cp.spawn(binary, ['serve'], { cwd: ws });
  server.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  conn = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('workspace/applyEdit', (p: (typeof applied)[number]) => {
    applied.push(p);
    applyToDocs(p.edit as Parameters<typeof applyToDocs>[0]);
    return { applied: true };
  });
  conn.onRequest('window/showDocument', () => ({ success: true }));
  for (const method of ['client/registerCapability', 'client/unregisterCapability', 'window/workDoneProgress/create', 'window/showMessageRequest', 'workspace/diagnostic/refresh', 'workspace/codeLens/refresh']) {
    conn.onRequest(method, () => null);
  }
  for (const method of ['textDocument/publishDiagnostics', 'window/logMessage', 'window/showMessage', '$/progress']) {
    conn.onNotification(method, () => undefined);
  }
  conn.listen();
  const root = pathToFileURL(ws).href;
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: 'ws' }],
    capabilities: { workspace: { configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true } } },
  });
  await conn.sendNotification('initialized', {});
  const text = fs.readFileSync(path.join(ws, criteriaRel), 'utf8');
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(criteriaRel), languageId: 'markdown', version: 1, text } });
});

after(() => stopServer(conn, server, ws));

test('the status view shows the completion blockers the server reports', async () => {
  const report = await execute<Report>(statusRequest(uriOf(criteriaRel)));
  const html = statusPage(new MarkdownIt().render(markdownOf(report)));

  const first = report.charters[0];
  assert.ok(first && isRegister(first), `the fixture is a criteria.md charter: ${JSON.stringify(first)}${stderr}`);
  const blockers = first.details.blockingForComplete;
  const reasons = new Set(blockers.map((b) => b.reason));
  assert.ok(reasons.has('val-not-pass') && reasons.has('report-empty-section'), `the fixture's blockers: ${JSON.stringify(blockers)}${stderr}`);
  assert.match(html, new RegExp(`<h3>Completion blockers \\(${blockers.length}\\)</h3>`));
  assert.ok(!/Completion blockers[^]*?<p>None\.<\/p>/.test(html), 'the view says None. although the server reports blockers');
  assert.ok(html.includes("<li><strong>val-not-pass</strong> <code>VAL-SESS-002</code>: VAL-SESS-002's latest outcome is fail</li>"), html);
  assert.ok(html.includes('<li><strong>report-empty-section</strong>: REPORT.md ## Outcome needs content</li>'), html);
  for (const b of blockers) {
    // markdown-it writes text with &, <, > and " escaped.
    const text = b.message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    assert.ok(html.includes(text), `the view lacks the blocker ${b.reason}: ${b.message}`);
  }
});

test('record evidence: the server says which VAL the cursor is in and what it needs', async () => {
  const text = fs.readFileSync(path.join(ws, criteriaRel), 'utf8').split('\n');
  const heading = text.findIndex((l) => l.startsWith('### VAL-SESS-003'));
  assert.ok(heading >= 0);
  const current = await execute<VALAt | null>(valAtRequest(uriOf(criteriaRel), { line: heading + 1, character: 3 }));
  assert.ok(current, 'no VAL at the cursor');
  assert.equal(current.criterionId, 'VAL-SESS-003');
  assert.equal(current.becauseRequired, true, 'VAL-SESS-003 is verified by a person: its evidence needs a because');

  const vals = orderForPick(valsOf(await execute<Report>({ command: 'charter.status', arguments: [] })), current);
  assert.equal(vals[0].criterionId, 'VAL-SESS-003', 'the cursor VAL comes first in the pick');
  const picked = vals.find((v) => v.criterionId === 'VAL-SESS-002');
  assert.ok(picked);
  const info = await execute<VALAt | null>(valByIdRequest(pathToFileURL(picked.dir).href, picked.criterionId));
  assert.equal(info?.becauseRequired, false, 'a command-verified VAL needs no because');
  assert.equal(info?.outcome, 'fail');

  const nowhere = await execute<VALAt | null>(valAtRequest(uriOf(criteriaRel), { line: 0, character: 0 }));
  assert.equal(nowhere, null, 'the title line is in no VAL');
});

// The documents the test opened, as the client holds them: the server's edits are applied
// here and sent back as didChange, as VS Code does, so each turn sees the last one's edit.
const docs = new Map<string, { text: string; version: number }>();

async function open(rel: string, text: string): Promise<string> {
  const uri = uriOf(rel);
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
  docs.set(uri, { text, version: 1 });
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
  return uri;
}

type TextEdit = { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string };

/** Applies the server's workspace edits to the open documents, last first within each. */
function applyToDocs(edit: { documentChanges?: { textDocument?: { uri: string }; edits?: TextEdit[] }[] }): void {
  for (const change of edit.documentChanges ?? []) {
    const doc = change.textDocument && docs.get(change.textDocument.uri);
    if (!doc || !change.edits) {
      continue;
    }
    const offset = (p: { line: number; character: number }) => {
      const lines = doc.text.split('\n');
      let o = 0;
      for (let i = 0; i < p.line && i < lines.length; i++) o += lines[i].length + 1;
      return o + p.character;
    };
    const sorted = [...change.edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
    for (const e of sorted) {
      doc.text = doc.text.slice(0, offset(e.range.start)) + e.newText + doc.text.slice(offset(e.range.end));
    }
    doc.version++;
    void conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: change.textDocument!.uri, version: doc.version },
      contentChanges: [{ text: doc.text }],
    });
  }
}

/** Runs one turn's request, as "Charter: Interview" does. */
async function turnOf(req: CommandRequest | undefined): Promise<Turn> {
  assert.ok(req, 'the turn offers no request');
  const t = await execute<unknown>(req);
  assert.ok(isTurn(t), `not a turn: ${JSON.stringify(t)}${stderr}`);
  return t;
}

test('"Charter: Interview" on a new charter: the prompts the server words, answer, skip, finish', async () => {
  const uri = await open('conv/.rp1/context/charter.md', '');
  let t = await turnOf(startRequest(uri));
  assert.equal(t.title, 'Q1 of 5 · Brain Dump');
  assert.match(t.question ?? '', /^Tell me everything about this project\./);
  assert.deepEqual(t.buttons.map((b) => b.label), ['Skip'], 'no Finish before the problem and users are covered');
  t = await turnOf(answerRequest(t, 'The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers.'));
  assert.equal(t.title, 'Q2 of 5 · Value Proposition');
  assert.deepEqual(t.buttons.map((b) => b.label), ['Skip', 'Finish']);
  t = await turnOf(buttonRequest(t.buttons[0]));
  assert.equal(t.title, 'Q3 of 5 · Scope');
  t = await turnOf(buttonRequest(t.buttons.find((b) => b.id === 'finish')!));
  assert.equal(t.done, true);
  assert.match(t.message ?? '', /The charter is finished/);
  const text = docs.get(uri)!.text;
  assert.ok(!text.includes('## Scratch Pad'), `the scratch pad is still there:\n${text}`);
  assert.match(text, /## Problem & Context\n\nThe problem: on-call engineers lose ten minutes per incident\./);
});

test('"Charter: Interview" on an rp1 skeleton charter: one region at a time, the answer written into it', async () => {
  const text = [
    '# Project Charter: ferrylog', '**Status**: Draft', '', '## Vision', '_TBD_', '',
    '## Problem & Context', 'Crossings are logged on paper and retyped the next morning.', '',
    '## Target Users', 'Deck officers at sea.', '', '## Business Rationale', 'One entry at sea replaces the paper log.', '',
    '## Scope Guardrails', '### Will', '- Offline logging', "### Won't", '- _TBD_', '',
    '## Success Criteria', 'No log is retyped a month after launch.', '',
  ].join('\n');
  const uri = await open('ferry/.rp1/context/charter.md', text);
  let t = await turnOf(startRequest(uri));
  assert.equal(t.title, 'Region 1 of 7 · Vision');
  assert.match(t.question ?? '', /\S/);
  t = await turnOf(answerRequest(t, 'Every crossing logged once, at sea.'));
  assert.equal(t.title, "Region 6 of 7 · Scope Guardrails / Won't");
  t = await turnOf(answerRequest(t, 'Payroll.'));
  assert.equal(t.done, true);
  assert.match(t.message ?? '', /\*\*Status\*\*: Complete/);
  const after = docs.get(uri)!.text;
  assert.ok(after.includes('Every crossing logged once, at sea.') && after.includes('- Payroll.') && after.includes('**Status**: Complete'), after);
});
