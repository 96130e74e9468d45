import { strict as assert } from 'assert';
import { test } from 'node:test';
import type { Charter, Report, Status } from '../src/generated/status';
import { ago, chartersOf, criteriaOf, describeAnswer, isRunAnswer, isRunOutput, verifyRequest } from '../src/charters';

// Statuses the server could send, typed by the generated schema types.
const pi: Status = {
  charterId: 'auth', dir: '/p/.pi/charters/auth', status: 'active', objective: '', now: '2026-11-13T12:00:00.000Z',
  milestones: [
    { milestoneId: 'm1', title: 'm1 Sessions', criterionIds: ['VAL-A-1', 'VAL-A-2'], valCount: 2, valPassCount: 1 },
    { milestoneId: 'm2', title: 'm2 Rollout', criterionIds: ['VAL-B-1'], valCount: 1, valPassCount: 0 },
  ],
  valTotal: 3, valPass: 1, registerEmpty: false,
  criteria: [
    { criterionId: 'VAL-A-1', title: 'logs in', milestoneId: 'm1', verifier: 'command', verifierSpec: { kind: 'command', command: 'go test ./...' }, requireFreshEvidence: true,
      outcome: 'pass', lastTs: '2026-11-13T10:00:00.000Z', lastSummary: 'ok', stale: true, file: 'criteria.md', line: 5, verify: { command: 'go test ./...' } },
    { criterionId: 'VAL-A-2', title: 'logs out', milestoneId: 'm1', verifier: 'manual', verifierSpec: { kind: 'manual' }, requireFreshEvidence: false, stale: false, file: 'criteria.md', line: 11 },
    { criterionId: 'VAL-B-1', title: 'rolls out', milestoneId: 'm2', verifier: 'command', verifierSpec: { kind: 'command', command: 'bun test -t x' }, requireFreshEvidence: false,
      outcome: 'fail', stale: false, file: 'criteria.md', line: 20, verify: { command: 'bun test -t x', weak: 'filters by title' } },
  ],
  drift: { uncovered: [], stale: [], readyNext: [], sidecarDrift: [], milestoneArtifacts: [] },
  details: { blockingForComplete: [{ reason: 'val-not-pass', criterionId: 'VAL-B-1', message: 'VAL-B-1 is fail' }, { reason: 'report-missing', message: 'REPORT.md is missing' }] },
  commands: {}, parseWarnings: [], fileProblems: [],
  nextActions: [{ tool: 'charter_record', action: 'evidence', hint: 'Verify VAL-B-1', cli: 'charter-lsp verify VAL-B-1', editor: 'code lens' }],
};
const dot: Charter = {
  format: 'charters', charterId: '20260701-000000-ship', dir: '/p/.charters/20260701-000000-ship', generation: 'fi15', readAs: null, listed: true, legacy: true,
  status: 'active', objective: 'ship', references: '', scope: '', progress: { pass: 1, total: 2 }, blockers: ['C2 status is pending'],
  criteria: [
    { id: 'C1', title: 'parses', body: '', status: 'pass', note: 'ran it', stale: false, depends: [], failCount: 0, line: 4, verify: { command: 'echo ok' } },
    { id: 'C2', title: 'docs', body: '', status: 'pending', note: '', stale: false, depends: ['C1'], failCount: 0, line: 7 },
  ],
  warnings: [], reportExists: false, events: 0, fileProblems: [], nextActions: [],
};

test('chartersOf arranges what the server sent: charter → milestone → criterion', () => {
  const report: Report = { charters: [pi, dot] };
  const [a, b] = chartersOf(report, new Date('2026-11-13T12:00:00.000Z'));
  assert.equal(a.label, 'auth');
  assert.deepEqual([a.lifecycle, a.pass, a.total, a.file], ['active', 1, 3, '/p/.pi/charters/auth/criteria.md']);
  assert.deepEqual(a.children.map((m) => (m.kind === 'milestone' ? `${m.label} ${m.pass}/${m.total}: ${m.criteria.map((c) => c.criterionId)}` : '')), ['m1 Sessions 1/2: VAL-A-1,VAL-A-2', 'm2 Rollout 0/1: VAL-B-1']);
  const [a1, a2, b1] = criteriaOf(a);
  assert.deepEqual([a1.file, a1.line, a1.outcome, a1.status, a1.stale, a1.verify?.command], ['/p/.pi/charters/auth/criteria.md', 4, 'pass', 'pass 2h ago · stale', true, 'go test ./...']);
  assert.deepEqual([a2.outcome, a2.status, a2.verify], [undefined, 'no evidence', undefined]);
  assert.equal(b1.verify?.weak, 'filters by title');
  assert.deepEqual(a.blockers.map((x) => [x.message, x.criterion?.criterionId]), [['VAL-B-1 is fail', 'VAL-B-1'], ['REPORT.md is missing', undefined]]);
  assert.deepEqual(a.nextActions, [{ hint: 'Verify VAL-B-1', cli: 'charter-lsp verify VAL-B-1', editor: 'code lens' }]);

  assert.deepEqual([b.label, b.pass, b.total, b.file], ['20260701-000000-ship', 1, 2, '/p/.charters/20260701-000000-ship/charter.md']);
  assert.deepEqual(b.children.map((c) => (c.kind === 'criterion' ? [c.criterionId, c.line, c.outcome, c.status, c.verify?.command] : [])), [['C1', 3, 'pass', 'pass', 'echo ok'], ['C2', 6, undefined, 'pending', undefined]]);
  assert.deepEqual(b.blockers, [{ message: 'C2 status is pending' }]);
});

test('a register without milestones lists its criteria directly', () => {
  const flat: Status = { ...pi, milestones: [{ milestoneId: '', title: '', criterionIds: ['VAL-A-1'], valCount: 1, valPassCount: 1 }], criteria: [pi.criteria[0]] } as Status;
  const [c] = chartersOf({ charters: [flat] });
  assert.deepEqual(c.children.map((n) => n.kind), ['criterion']);
});

test('requests and answers', () => {
  assert.deepEqual(verifyRequest('file:///p/c.md', 'VAL-A-1', 'go test ./...'), { command: 'charter.verify', arguments: [{ uri: 'file:///p/c.md', criterionId: 'VAL-A-1', command: 'go test ./...' }] });
  const answer = { criterionId: 'VAL-A-1', dir: '/p', command: 'x', run: 'r', declined: false, cancelled: false, timedOut: false, outcome: 'pass', exitCode: 0, durationMs: 1200, recorded: '/p/e.json' };
  assert.equal(isRunAnswer(answer), true);
  assert.equal(isRunAnswer(null), false);
  assert.equal(describeAnswer(answer), 'VAL-A-1: pass (exit 0, 1.2s); recorded in /p/e.json');
  assert.equal(describeAnswer({ ...answer, cancelled: true }), 'VAL-A-1: cancelled; nothing recorded');
  assert.equal(describeAnswer({ ...answer, declined: true }), 'VAL-A-1: not run');
  assert.equal(isRunOutput({ run: 'r', criterionId: 'x', text: 'hi', done: false }), true);
  assert.equal(isRunOutput({ text: 'hi' }), false);
  assert.equal(ago(new Date('2026-11-13T12:00:00Z'), new Date('2026-11-13T11:55:00Z')), '5m ago');
});
