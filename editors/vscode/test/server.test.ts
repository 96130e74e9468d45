import { strict as assert } from 'assert';
import { test } from 'node:test';
import type { Charter, Report, Status, VALAt } from '../src/generated/status';
import { isRegister, markdownOf, orderForPick, statusRequest, valAtRequest, valsOf } from '../src/server';

// A status the server could send, typed by the generated schema types, so this test stops
// compiling when the shape changes. (The real server's answers are tested in test-server/.)
function charter(id: string, dir: string, vals: [string, string | undefined][]): Status {
  return {
    charterId: id, dir, status: 'active', objective: '', now: '2026-11-13T12:00:00.000Z',
    milestones: [], valTotal: vals.length, valPass: 0, registerEmpty: vals.length === 0,
    criteria: vals.map(([criterionId, outcome]) => ({ criterionId, title: `${criterionId} holds`, verifier: 'command', verifierSpec: { kind: 'command', command: 'true' }, requireFreshEvidence: false, outcome, stale: false, file: 'criteria.md', line: 3 })),
    drift: { uncovered: [], stale: [], readyNext: [], sidecarDrift: [], milestoneArtifacts: [] },
    details: { blockingForComplete: [] }, commands: {}, parseWarnings: [], fileProblems: [], nextActions: [],
  };
}

test('requests carry what the server reads', () => {
  assert.deepEqual(statusRequest('file:///p/a.md'), { command: 'charter.status', arguments: [{ uri: 'file:///p/a.md', render: 'markdown' }] });
  assert.deepEqual(statusRequest(undefined), { command: 'charter.status', arguments: [{ render: 'markdown' }] });
  assert.deepEqual(valAtRequest('file:///p/c.md', { line: 3, character: 1 }), { command: 'charter.valAt', arguments: [{ uri: 'file:///p/c.md', position: { line: 3, character: 1 } }] });
});

test('markdownOf shows the server markdown, or says it sent none', () => {
  assert.equal(markdownOf({ charters: [], markdown: '# Charter status\n' }), '# Charter status\n');
  assert.match(markdownOf({ charters: [] }), /sent no rendered status/);
  assert.match(markdownOf(undefined), /sent no rendered status/);
});

test('orderForPick: the cursor VAL first, then open ones, each once', () => {
  const report: Report = {
    charters: [
      charter('a', '/p/.pi/charters/a', [['A1', 'pass'], ['A2', undefined], ['A3', 'fail'], ['A4', 'pass'], ['A2', undefined]]),
      charter('b', '/p/.pi/charters/b', [['A1', undefined]]),
    ],
  };
  const vals = valsOf(report);
  assert.equal(vals.length, 6);
  const current = { criterionId: 'A4', dir: '/p/.pi/charters/a' } as VALAt;
  assert.deepEqual(orderForPick(vals, current).map((v) => `${v.charterId}:${v.criterionId}`), ['a:A4', 'a:A2', 'a:A3', 'b:A1', 'a:A1']);
  assert.deepEqual(orderForPick(vals, null).map((v) => `${v.charterId}:${v.criterionId}`), ['a:A2', 'a:A3', 'b:A1', 'a:A1', 'a:A4']);
});

test('valsOf lists only criteria.md VALs: a .charters/ charter has none to record', () => {
  const dotCharters: Charter = {
    format: 'charters', charterId: 'c1', dir: '/p/.charters/c1', generation: 'fi15', readAs: null, listed: true, legacy: true,
    status: 'active', objective: 'ship', references: '', scope: '',
    criteria: [{ id: 'C1', title: 'works', body: '', status: 'pending', note: '', stale: false, depends: [], failCount: 0, line: 4 }],
    warnings: [], reportExists: false, events: 0, fileProblems: [], nextActions: [],
  };
  const report: Report = { charters: [dotCharters, charter('a', '/p/.pi/charters/a', [['A1', 'fail']])] };
  assert.equal(isRegister(report.charters[0]), false);
  assert.deepEqual(valsOf(report).map((v) => `${v.charterId}:${v.criterionId}`), ['a:A1']);
});
