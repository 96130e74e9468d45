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
