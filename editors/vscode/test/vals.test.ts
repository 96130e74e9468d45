import { strict as assert } from 'assert';
import { test } from 'node:test';
import { isCharterPath } from '../src/selector';
import { becausePrompt, orderForPick, valAtLine, valOfHeading } from '../src/vals';

test('valAtLine finds the VAL whose section holds the cursor', () => {
  const lines = [
    '# Criteria', //                    0
    '## M1 Sessions', //                1
    '### VAL-SESS-001 — Tokens expire', // 2
    'Verifier: command', //             3
    '#### Notes', //                    4
    'text', //                          5
    '### VAL-SESS-002', //              6
    '### Not a VAL', //                 7
    'body', //                          8
  ];
  const cases: [number, string | undefined][] = [[0, undefined], [1, undefined], [2, 'VAL-SESS-001'], [3, 'VAL-SESS-001'], [5, 'VAL-SESS-001'], [6, 'VAL-SESS-002'], [8, undefined], [99, undefined]];
  for (const [line, want] of cases) {
    assert.equal(valAtLine(lines, line), want, `line ${line}`);
  }
  assert.equal(valOfHeading('## VAL-TOP-1 ungrouped'), 'VAL-TOP-1');
  assert.equal(valOfHeading('### VAL-roll-002'), undefined, 'lower-case ids are not VALs upstream');
});

test('orderForPick puts the cursor VAL first, then open ones', () => {
  const vals = [
    { id: 'A', outcome: 'pass' },
    { id: 'B' },
    { id: 'C', outcome: 'fail' },
    { id: 'D', outcome: 'pass' },
  ];
  assert.deepEqual(orderForPick(vals, 'D').map((v) => v.id), ['D', 'B', 'C', 'A']);
  assert.deepEqual(orderForPick(vals, undefined).map((v) => v.id), ['B', 'C', 'A', 'D']);
});

test('becausePrompt', () => {
  assert.equal(becausePrompt({ id: 'A', verifier: 'manual' }), 'required');
  assert.equal(becausePrompt({ id: 'A', verifier: 'command' }), 'none');
  assert.equal(becausePrompt({ id: 'A' }), 'optional');
});

test('isCharterPath', () => {
  const cases: [string, boolean][] = [
    ['/p/.rp1/context/charter.md', true],
    ['/p/Charter.md', true],
    ['/p/.pi/charters/auth/criteria.md', true],
    ['/p/.pi/charters/auth/REPORT.md', true],
    ['/p/.pi/charters/auth/work/_charter/evidence/2026/evidence.json', true],
    ['/p/criteria.md', false],
    ['/p/README.md', false],
    ['/p/package.json', false],
    ['C:\\p\\.pi\\charters\\a\\criteria.md', true],
  ];
  for (const [p, want] of cases) {
    assert.equal(isCharterPath(p), want, p);
  }
});
