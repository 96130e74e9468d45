// The Testing view's and the Charters view's model (src/charters.ts) and the verify request
// against the real server: the built charter-lsp over stdio, on a copy of the editor tests'
// verify workspace (a pi charter and a .charters/ charter whose criteria run echo).
//   CHARTER_LSP  the server binary (default: <repo>/bin/charter-lsp; `make build`)
import { strict as assert } from 'assert';
import * as cp from 'child_process';
import * as fs from 'fs';
import { after, before, test } from 'node:test';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { createProtocolConnection, ProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { chartersOf, criteriaOf, describeAnswer, isRunAnswer, isRunOutput, VERIFY_OUTPUT, verifyRequest } from '../src/charters';
import type { Report, RunOutput } from '../src/generated/status';
import { chartersRequest, CommandRequest } from '../src/server';
import { stopServer } from './stop';

const extension = path.resolve(__dirname, '..', '..');
const binary = process.env.CHARTER_LSP || path.resolve(extension, '..', '..', 'bin', 'charter-lsp');

let ws: string;
let server: cp.ChildProcessWithoutNullStreams;
let conn: ProtocolConnection;
let stderr = '';
const asked: string[] = [];
const output: RunOutput[] = [];
const execute = <T>(req: CommandRequest) => conn.sendRequest('workspace/executeCommand', req) as Promise<T>;

before(async () => {
  assert.ok(fs.existsSync(binary), `no server binary at ${binary}: run make build (or set CHARTER_LSP)`);
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'charter-vscode-verify-'));
  fs.cpSync(path.resolve(extension, '..', 'e2e', 'testdata', 'verify'), ws, { recursive: true });
  server = cp.spawn(binary, ['serve'], { cwd: ws });
  server.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  conn = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('window/showMessageRequest', (p: { message: string }) => {
    asked.push(p.message);
    return { title: 'Run' };
  });
  for (const method of ['client/registerCapability', 'window/workDoneProgress/create', 'workspace/codeLens/refresh']) {
    conn.onRequest(method, () => null);
  }
  for (const method of ['textDocument/publishDiagnostics', 'window/logMessage', 'window/showMessage', '$/progress']) {
    conn.onNotification(method, () => undefined);
  }
  conn.onNotification(VERIFY_OUTPUT, (o: unknown) => {
    if (isRunOutput(o)) output.push(o);
  });
  conn.listen();
  const root = pathToFileURL(ws).href;
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: root, workspaceFolders: [{ uri: root, name: 'ws' }], capabilities: { window: { workDoneProgress: true } } });
  await conn.sendNotification('initialized', {});
});

after(() => stopServer(conn, server, ws));

test('every charter of the workspace, each criterion where it is written, with its command', async () => {
  const charters = chartersOf(await execute<Report>(chartersRequest(undefined)));
  assert.deepEqual(charters.map((c) => c.label).sort(), ['20260701-000000-ship', 'Verify from the editor'], stderr);
  for (const c of charters) {
    for (const n of criteriaOf(c)) {
      const heading = fs.readFileSync(n.file, 'utf8').split('\n')[n.line];
      assert.ok(heading.includes(n.criterionId), `${n.criterionId} is said to be at ${n.file}:${n.line + 1}, which reads ${JSON.stringify(heading)}`);
      assert.ok(n.verify?.command, `${n.criterionId} has a command`);
    }
  }
  const pi = charters.find((c) => c.label === 'Verify from the editor')!;
  assert.equal(criteriaOf(pi)[0].verify?.command, 'echo verify-e2e-output && echo all checks passed'); // the ## Commands entry it names
  assert.equal(criteriaOf(pi)[0].verify?.key, 'greet');
});

test('charter.verify asks, runs, streams and records; the model then shows the pass', async () => {
  const before = chartersOf(await execute<Report>(chartersRequest(undefined))).find((c) => c.label === 'Verify from the editor')!;
  const v1 = criteriaOf(before)[0];
  const answer = await execute<unknown>(verifyRequest(pathToFileURL(v1.file).href, v1.criterionId, v1.verify!.command));
  assert.ok(isRunAnswer(answer), JSON.stringify(answer));
  assert.equal(answer.outcome, 'pass');
  assert.match(describeAnswer(answer), /^VAL-V-001: pass \(exit 0, [\d.]+s\); recorded in .*evidence\.json$/);
  assert.equal(asked.length, 1);
  assert.ok(asked[0].includes('\n\necho verify-e2e-output && echo all checks passed'), asked[0]);
  const mine = output.filter((o) => o.run === answer.run);
  assert.ok(mine.map((o) => o.text).join('').includes('verify-e2e-output\nall checks passed\n'));
  assert.equal(mine[mine.length - 1].done, true);
  const after = chartersOf(await execute<Report>(chartersRequest(undefined))).find((c) => c.label === 'Verify from the editor')!;
  assert.equal(criteriaOf(after)[0].outcome, 'pass');
  assert.equal(after.pass, 1);
});
