import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { test } from 'node:test';

// The manifest's Workspace Trust declaration: the extension runs in Restricted Mode,
// but a workspace can then neither pick the server binary nor widen what the server
// reads (the server's own rule for its project file: see the README's trust table).
test('package.json declares limited support for untrusted workspaces', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const trust = pkg.capabilities?.untrustedWorkspaces;
  assert.equal(trust?.supported, 'limited');
  assert.ok(typeof trust.description === 'string' && trust.description.length > 0, 'a description');
  const restricted: string[] = trust.restrictedConfigurations ?? [];
  for (const key of ['charter.server.path', 'charter.freshness', 'charter.sourceDirs', 'charter.debounceMs']) {
    assert.ok(restricted.includes(key), `${key} is restricted`);
    assert.ok(pkg.contributes.configuration.properties[key], `${key} is a contributed setting`);
  }
});

// The interview agent is a program the server runs: a user (machine) setting, which VS Code
// never takes from a workspace, and restricted in an untrusted one.
test('the interview agent is a user setting', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  for (const key of ['charter.interviewAgent', 'charter.interviewAgentTimeout']) {
    const scope = pkg.contributes.configuration.properties[key]?.scope;
    assert.ok(scope === 'machine' || scope === 'application', `${key} has scope ${scope}: a workspace could set it`);
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(key), `${key} is restricted`);
  }
});
