import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { test } from 'node:test';
import { chartersOf, criteriaOf, escapeMarkdown, renderStatusMarkdown } from '../src/status';

const testdata = path.join(__dirname, '..', '..', 'test', 'testdata');

test('renders the status fixture as the expected markdown', () => {
  const status = JSON.parse(fs.readFileSync(path.join(testdata, 'status.json'), 'utf8'));
  const want = fs.readFileSync(path.join(testdata, 'status.md'), 'utf8');
  assert.equal(renderStatusMarkdown(status), want);
});

test('criteriaOf lists VALs with charter and verifier, skipping malformed rows', () => {
  const status = JSON.parse(fs.readFileSync(path.join(testdata, 'status.json'), 'utf8'));
  assert.deepEqual(criteriaOf(status), [
    { id: 'VAL-SESS-001', outcome: 'pass', verifier: 'command', title: undefined, charterId: 'auth-rework' },
    { id: 'VAL-SESS-002', outcome: 'fail', verifier: 'command', title: undefined, charterId: 'auth-rework' },
    { id: 'VAL-ROLL-001', outcome: undefined, verifier: 'manual', title: undefined, charterId: 'auth-rework' },
  ]);
});

test('accepts the shapes a server might send', () => {
  const cases: [string, unknown, number][] = [
    ['wrapped', { charters: [{ charterId: 'a' }] }, 1],
    ['bare array', [{ charterId: 'a' }, { charterId: 'b' }], 2],
    ['single charter', { charterId: 'a', criteria: [] }, 1],
    ['null', null, 0],
    ['string', 'oops', 0],
    ['charters not an array', { charters: 'x' }, 0],
  ];
  for (const [name, input, n] of cases) {
    assert.equal(chartersOf(input).length, n, name);
    assert.doesNotThrow(() => renderStatusMarkdown(input), name);
  }
  assert.match(renderStatusMarkdown(null), /No pi-charter charters/);
});

test('escapeMarkdown neutralises markup and table breaks', () => {
  assert.equal(escapeMarkdown('a|b <script> *x* [l](u)\nnext'), 'a\\|b \\<script\\> \\*x\\* \\[l\\]\\(u\\) next');
});
