import { strict as assert } from 'assert';
import { test } from 'node:test';
import { serverSettings } from '../src/settings';

test('serverSettings maps the VS Code settings to the server configuration', () => {
  const cases: { name: string; raw: Record<string, unknown> | undefined; want: unknown }[] = [
    { name: 'undefined', raw: undefined, want: { severity: {}, restricted: false } },
    {
      name: 'defaults',
      raw: { severity: {}, disabledCodes: [], sourceDirs: ['src'], freshness: 'mtime', questionBudget: 5, debounceMs: 30 },
      want: { severity: {}, restricted: false, sourceDirs: ['src'], freshness: 'mtime', questionBudget: 5, debounceMs: 30 },
    },
    {
      name: 'disabled codes become off and win over severity',
      raw: { severity: { 'missing-verifier': 'Error', 'val-title-task': 'warning' }, disabledCodes: ['val-title-task', ' ', 3] },
      want: { severity: { 'missing-verifier': 'error', 'val-title-task': 'off' }, restricted: false },
    },
    {
      name: 'wrong types are dropped so server defaults apply',
      raw: { severity: { a: 'loud', b: 1 }, sourceDirs: ['src', 2], freshness: 'ctime', questionBudget: 2.5, debounceMs: -1, server: { path: '/x' } },
      want: { severity: {}, restricted: false },
    },
    { name: 'zero debounce is allowed', raw: { debounceMs: 0 }, want: { severity: {}, restricted: false, debounceMs: 0 } },
    { name: 'git freshness', raw: { freshness: 'git', sourceDirs: ['lib', 'cmd'] }, want: { severity: {}, restricted: false, sourceDirs: ['lib', 'cmd'], freshness: 'git' } },
  ];
  for (const c of cases) {
    assert.deepEqual(serverSettings(c.raw), c.want, c.name);
  }
});

test('serverSettings tells the server about Restricted Mode', () => {
  assert.deepEqual(serverSettings({ freshness: 'git' }, false), { severity: {}, freshness: 'git', restricted: true });
  assert.deepEqual(serverSettings({ freshness: 'git' }, true), { severity: {}, freshness: 'git', restricted: false });
});
