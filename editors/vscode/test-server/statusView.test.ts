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
import { CommandRequest, isRegionStep, isRegister, markdownOf, orderForPick, regionAnswerRequest, ServerCommand, statusRequest, valAtRequest, valByIdRequest, valsOf } from '../src/server';
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

test('interview on an rp1 skeleton charter: the question, then the answer written into its region', async () => {
  const rel = 'ferry/.rp1/context/charter.md';
  const text = [
    '# Project Charter: ferrylog', '**Status**: Draft', '', '## Vision', '_TBD_', '',
    '## Problem & Context', 'Crossings are logged on paper and retyped the next morning.', '',
    '## Target Users', 'Deck officers at sea.', '', '## Business Rationale', 'One entry at sea replaces the paper log.', '',
    '## Scope Guardrails', '### Will', '- Offline logging', "### Won't", '- _TBD_', '',
    '## Success Criteria', 'No log is retyped a month after launch.', '',
  ].join('\n');
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(rel), languageId: 'markdown', version: 1, text } });

  // What "Charter: Ask next interview question" sends first.
  const asked = await execute<unknown>({ command: ServerCommand.interviewNext, arguments: [{ uri: uriOf(rel) }] });
  assert.ok(isRegionStep(asked), `not a region step: ${JSON.stringify(asked)}${stderr}`);
  assert.equal(asked.asked, 'Vision');
  assert.match(asked.question ?? '', /\S/, 'the step carries the question for the input box');
  assert.deepEqual(asked.gaps, ['Vision', "Scope Guardrails / Won't"]);

  // The answer typed into the input box.
  const before = applied.length;
  const answered = await execute<unknown>(regionAnswerRequest(uriOf(rel), asked.asked!, 'Every crossing logged once, at sea.'));
  assert.ok(isRegionStep(answered), `not a region step: ${JSON.stringify(answered)}${stderr}`);
  assert.equal(answered.answered, 'Vision');
  assert.equal(answered.next, "Scope Guardrails / Won't");
  assert.deepEqual(answered.gaps, ["Scope Guardrails / Won't"]);
  const written = applied.slice(before).flatMap((a) => a.edit.documentChanges ?? []).flatMap((c) => c.edits.map((e) => e.newText)).join('');
  assert.ok(written.includes('Every crossing logged once, at sea.'), `the edit lacks the answer: ${JSON.stringify(applied.slice(before))}`);
});
