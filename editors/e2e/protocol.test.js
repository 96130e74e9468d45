// The language server's protocol scenario, driven over stdio against the built binary by a
// client built on vscode-languageserver-protocol:
//   initialize → open → diagnostics (codes, ranges) → change → new diagnostics → hover →
//   code action → applied edit → status command → shutdown → exit 0.
// Each step is its own test so the report says which parts of the server work; a step
// whose prerequisite failed says so instead of timing out.
'use strict';
const assert = require('assert/strict');
const fs = require('fs');
const path = require('path');
const { test, before, after } = require('node:test');
const { LspClient, hoverText, summarize } = require('./lib/lsp-client');
const { makeWorkspace, evidenceFiles, expectations, serverBinary } = require('./lib/workspace');

const X = expectations();
let ws;
let client;
let initialized = false;
const uris = {};

const requires = (cond, what) => assert.ok(cond, `not run: ${what} failed earlier`);

/** Asserts each expected diagnostic is present with its code and a range starting in its block. */
function checkExpected(diags, expected) {
  const missing = [];
  for (const e of expected) {
    const hit = diags.find((d) => d.code === e.code && d.range.start.line >= e.lines[0] && d.range.start.line <= e.lines[1]);
    if (!hit) {
      missing.push(`${e.code} on lines ${e.lines[0]}–${e.lines[1]} (${e.about})`);
    }
  }
  assert.deepEqual(missing, [], `missing diagnostics; got: ${summarize(diags)}`);
  for (const d of diags) {
    assert.equal(d.source, 'charter', `diagnostic ${d.code} has source ${d.source}`);
    assert.match(String(d.code), /^[a-z0-9]+(-[a-z0-9]+)*$/, 'codes are kebab-case');
    assert.ok(d.range.end.line > d.range.start.line || d.range.end.character >= d.range.start.character, `${d.code}: range ends before it starts`);
  }
}

const hasAll = (expected) => (diags) => expected.every((e) => diags.some((d) => d.code === e.code));

before(() => {
  ws = makeWorkspace('charter-node-');
  client = new LspClient(serverBinary(), ws.dir, { questionBudget: 5 });
  client.start();
});

after(() => {
  client?.kill();
  ws?.remove();
});

test('initialize: the handshake, with incremental sync', async () => {
  const res = await client.initialize();
  initialized = true;
  const caps = res.capabilities;
  const sync = typeof caps.textDocumentSync === 'number' ? caps.textDocumentSync : caps.textDocumentSync?.change;
  assert.equal(sync, 2, 'textDocumentSync must be incremental (2)');
});

test('capabilities: hover, code actions and the charter commands', () => {
  requires(initialized, 'initialize');
  const caps = client.initResult.capabilities;
  const commands = caps.executeCommandProvider?.commands ?? [];
  const missing = [
    !caps.hoverProvider && 'hoverProvider',
    !caps.codeActionProvider && 'codeActionProvider',
    ...['charter.interview.next', 'charter.status', 'charter.valAt', 'charter.recordEvidence'].filter((c) => !commands.includes(c)).map((c) => `executeCommand ${c}`),
  ].filter(Boolean);
  assert.deepEqual(missing, [], `server lacks: ${missing.join(', ')}`);
});

test('open criteria.md: diagnostics with codes and ranges', async () => {
  requires(initialized, 'initialize');
  uris.criteria = client.open(ws.file(X.criteria.file));
  const diags = await client.waitForDiagnostics(uris.criteria, hasAll(X.criteria.diagnostics));
  checkExpected(diags, X.criteria.diagnostics);
});

test('change: a Because: line clears missing-because for the new version', async () => {
  requires(uris.criteria && client.diagnostics.has(uris.criteria), 'open criteria.md');
  const c = X.criteria.change;
  const before = client.diagnostics.get(uris.criteria).diagnostics.length;
  const version = client.change(uris.criteria, [{ range: { start: c.insertAt, end: c.insertAt }, newText: c.text }]);
  const diags = await client.waitForDiagnostics(uris.criteria, (ds) => !ds.some((d) => d.code === c.gone));
  assert.equal(client.diagnostics.get(uris.criteria).version ?? version, version, 'diagnostics carry the new version');
  assert.equal(diags.length, before - 1, `only ${c.gone} went away; now: ${summarize(diags)}`);
  // The diagnostics below the insertion moved down one line.
  const shifted = X.criteria.diagnostics.filter((e) => e.code !== c.gone).map((e) => (e.lines[0] > c.insertAt.line ? { ...e, lines: [e.lines[0] + 1, e.lines[1] + 1] } : e));
  checkExpected(diags, shifted);
});

test('hover on a VAL heading shows its latest outcome', async () => {
  requires(uris.criteria, 'open criteria.md');
  const h = X.criteria.hover;
  const hover = await client.request('textDocument/hover', { textDocument: { uri: uris.criteria }, position: { line: h.line, character: h.character } });
  const text = hoverText(hover);
  for (const want of h.contains) {
    assert.ok(text.includes(want), `hover lacks "${want}": ${JSON.stringify(text.slice(0, 300))}`);
  }
});

test('code action: ask the next interview question inserts it into charter.md', async () => {
  requires(initialized, 'initialize');
  const iv = X.charter.interview;
  uris.charter = client.open(ws.file(X.charter.file));
  const diags = await client.waitForDiagnostics(uris.charter, hasAll(X.charter.diagnostics));
  checkExpected(diags, X.charter.diagnostics);
  const pos = { line: iv.line, character: iv.character };
  const actions = (await client.request('textDocument/codeAction', {
    textDocument: { uri: uris.charter },
    range: { start: pos, end: pos },
    context: { diagnostics: diags.filter((d) => d.range.start.line <= pos.line && d.range.end.line >= pos.line) },
  })) ?? [];
  const action = actions.find((a) => a.title.includes(iv.title));
  assert.ok(action, `no "${iv.title}" action; got ${JSON.stringify(actions.map((a) => a.title))}`);
  const before = client.text(uris.charter);
  await client.runCodeAction(action);
  const after = client.text(uris.charter);
  assert.notEqual(after, before, 'the action changed nothing in the open document');
  const lines = after.split(/\r?\n/);
  let at = -1;
  for (const re of iv.newLines) {
    const i = lines.findIndex((l, n) => n > at && new RegExp(re).test(l));
    assert.ok(i > at, `no line matching /${re}/ after line ${at} in:\n${after}`);
    at = i;
  }
  assert.ok(lines.some((l) => new RegExp(iv.keep).test(l)), 'the earlier entry was kept');
  // The server re-checks the edited version.
  await client.waitForDiagnostics(uris.charter);
});

test('code action: record evidence writes evidence.json for the VAL', async () => {
  requires(uris.criteria, 'open criteria.md');
  const r = X.criteria.record;
  const charterDir = path.dirname(ws.file(X.criteria.file));
  const beforeFiles = evidenceFiles(charterDir);
  const pos = { line: r.line, character: r.character };
  const actions = (await client.request('textDocument/codeAction', {
    textDocument: { uri: uris.criteria },
    range: { start: pos, end: pos },
    context: { diagnostics: [] },
  })) ?? [];
  const action = actions.find((a) => a.title.includes(r.title));
  assert.ok(action, `no "${r.title}" action on ${r.criterionId}; got ${JSON.stringify(actions.map((a) => a.title))}`);
  await client.runCodeAction(action);
  const added = evidenceFiles(charterDir).filter((f) => !beforeFiles.includes(f));
  assert.equal(added.length, 1, `expected one new evidence.json, got ${JSON.stringify(added)}`);
  const row = JSON.parse(fs.readFileSync(added[0], 'utf8'));
  const rec = Array.isArray(row) ? row[0] : row;
  assert.equal(rec.criterionId, r.criterionId);
  assert.equal(rec.outcome, r.outcome);
  assert.ok(!Number.isNaN(Date.parse(rec.ts)), `ts is an ISO time: ${rec.ts}`);
  const state = JSON.parse(fs.readFileSync(path.join(charterDir, 'criterion-state.json'), 'utf8'));
  assert.equal(state.criteria?.[r.criterionId]?.outcome, r.outcome, 'criterion-state.json records the new outcome');
});

test('executeCommand charter.status returns the charter with milestones and VALs', async () => {
  requires(initialized, 'initialize');
  const res = await client.request('workspace/executeCommand', { command: 'charter.status', arguments: [] });
  const charters = res?.charters ?? [];
  const c = charters.find((x) => x.charterId === X.status.charterId);
  assert.ok(c, `status lacks charter ${X.status.charterId}: ${JSON.stringify(res).slice(0, 300)}`);
  assert.ok(Array.isArray(c.milestones) && c.milestones.length > 0, 'milestones listed');
  assert.ok(Array.isArray(c.criteria) && c.criteria.some((v) => v.criterionId === 'VAL-SESS-001'), 'criteria listed');
});

test('executeCommand charter.status renders the status with its completion blockers', async () => {
  requires(initialized, 'initialize');
  const res = await client.request('workspace/executeCommand', { command: 'charter.status', arguments: [{ uri: ws.uri(X.criteria.file), render: 'markdown' }] });
  assert.equal(typeof res?.markdown, 'string', `no markdown in ${JSON.stringify(res).slice(0, 300)}`);
  const lines = res.markdown.split('\n');
  let at = -1;
  for (const re of X.status.blockers) {
    const i = lines.findIndex((l, n) => n > at && new RegExp(re).test(l));
    assert.ok(i > at, `no line matching /${re}/ after line ${at} in:\n${res.markdown}`);
    at = i;
  }
});

test('executeCommand charter.valAt names the VAL at a position', async () => {
  requires(uris.criteria, 'open criteria.md');
  const r = X.criteria.recordCommand.manual;
  const val = await client.request('workspace/executeCommand', { command: 'charter.valAt', arguments: [{ uri: uris.criteria, position: { line: r.line, character: r.character } }] });
  assert.equal(val?.criterionId, r.criterionId, JSON.stringify(val));
  assert.equal(val.becauseRequired, true, 'a manual VAL needs a because');
  const none = await client.request('workspace/executeCommand', { command: 'charter.valAt', arguments: [{ uri: uris.criteria, position: { line: 0, character: 0 } }] });
  assert.equal(none, null, 'the title line is in no VAL: the answer is null');
});

// The interview agent named where the user starts the server (CHARTER_LSP_AGENT): here a
// script running the server's own interview behind rp1's contract. The conversation's
// prompts say the agent asked, the server reports progress while it works; in an untrusted
// workspace the agent is not run, and the user is told why.
async function agentClient(initializationOptions) {
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'charter-agent-'));
  const agent = path.join(dir, 'fake-agent');
  const marker = path.join(dir, 'the-agent-ran');
  fs.writeFileSync(agent, `#!/bin/sh\ntouch '${marker}'\nexec '${path.resolve(serverBinary())}' interview "$1" --mode "$2"\n`, { mode: 0o755 });
  const proj = path.join(dir, 'proj');
  fs.mkdirSync(path.join(proj, '.rp1', 'context'), { recursive: true });
  const file = path.join(proj, '.rp1', 'context', 'charter.md');
  fs.writeFileSync(file, '');
  const c = new LspClient(serverBinary(), proj, {}, { initializationOptions, env: { CHARTER_LSP_AGENT: agent } });
  c.start();
  await c.initialize();
  const uri = c.open(file);
  return { c, uri, marker, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

test('the interview agent from CHARTER_LSP_AGENT asks, with progress', async () => {
  const a = await agentClient({});
  try {
    const turn = await a.c.request('workspace/executeCommand', { command: 'charter.interview.turn', arguments: [{ uri: a.uri }] }, 30000);
    assert.equal(turn.title, 'Q1 of 5 · Brain Dump (asked by fake-agent)', JSON.stringify(turn));
    assert.ok(fs.existsSync(a.marker), 'the agent did not run');
    const kinds = a.c.progress.map((p) => p.kind);
    assert.deepEqual([kinds[0], kinds[kinds.length - 1]], ['begin', 'end'], JSON.stringify(a.c.progress));
    assert.equal(a.c.progress[0].title, 'Interview agent');
    assert.match(a.c.text(a.uri), /### Q1: Brain Dump\n\*\*Asked\*\*: /);
  } finally {
    a.c.kill();
    a.remove();
  }
});

test('the interview agent is not run in an untrusted workspace, and the user is told why', async () => {
  const a = await agentClient({ restricted: true });
  try {
    const turn = await a.c.request('workspace/executeCommand', { command: 'charter.interview.turn', arguments: [{ uri: a.uri }] }, 30000);
    assert.equal(turn.title, 'Q1 of 5 · Brain Dump', 'the built-in interviewer asks');
    assert.ok(!fs.existsSync(a.marker), 'the agent ran in an untrusted workspace');
    assert.ok(a.c.messages.some((m) => m.includes('interview agent (fake-agent) is not run in an untrusted workspace')), JSON.stringify(a.c.messages));
  } finally {
    a.c.kill();
    a.remove();
  }
});

test('shutdown then exit: the server exits 0', async () => {
  requires(initialized, 'initialize');
  const code = await client.shutdown();
  assert.equal(code, 0, `exit code ${code}${client.tail()}`);
});
