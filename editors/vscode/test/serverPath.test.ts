import { strict as assert } from 'assert';
import * as fs from 'fs';
import { test } from 'node:test';
import * as path from 'path';
import { expandSetting, findServer, LookupEnv, platformDir } from '../src/serverPath';

const env = (over: Partial<LookupEnv>, executables: string[]): LookupEnv => ({
  configured: '',
  extensionPath: '/ext',
  platform: 'linux',
  arch: 'x64',
  pathEnv: '/usr/local/bin:/usr/bin',
  home: '/home/u',
  workspaceFolder: '/ws',
  isExecutable: (f) => executables.includes(f),
  ...over,
});

test('findServer prefers the setting, then the bundled binary, then PATH', () => {
  const cases: { name: string; env: LookupEnv; want: unknown }[] = [
    {
      name: 'setting wins over bundled',
      env: env({ configured: '/opt/charter-lsp' }, ['/opt/charter-lsp', '/ext/bin/linux-amd64/charter-lsp']),
      want: { command: '/opt/charter-lsp', source: 'setting' },
    },
    {
      name: 'setting with ~ and workspace folder',
      env: env({ configured: '~/go/bin/charter-lsp' }, ['/home/u/go/bin/charter-lsp']),
      want: { command: '/home/u/go/bin/charter-lsp', source: 'setting' },
    },
    {
      name: 'relative setting resolves against the workspace',
      env: env({ configured: 'bin/charter-lsp' }, ['/ws/bin/charter-lsp']),
      want: { command: '/ws/bin/charter-lsp', source: 'setting' },
    },
    {
      name: 'bare name setting is looked up on PATH',
      env: env({ configured: 'charter-lsp-dev' }, ['/usr/bin/charter-lsp-dev']),
      want: { command: '/usr/bin/charter-lsp-dev', source: 'setting' },
    },
    {
      name: 'bundled for linux-amd64',
      env: env({}, ['/ext/bin/linux-amd64/charter-lsp', '/usr/bin/charter-lsp']),
      want: { command: '/ext/bin/linux-amd64/charter-lsp', source: 'bundled' },
    },
    {
      name: 'bundled for darwin-arm64',
      env: env({ platform: 'darwin', arch: 'arm64' }, ['/ext/bin/darwin-arm64/charter-lsp']),
      want: { command: '/ext/bin/darwin-arm64/charter-lsp', source: 'bundled' },
    },
    {
      name: 'PATH, first match',
      env: env({}, ['/usr/bin/charter-lsp', '/usr/local/bin/charter-lsp']),
      want: { command: '/usr/local/bin/charter-lsp', source: 'path' },
    },
    {
      name: 'bundled for another platform is not used',
      env: env({ arch: 'arm64' }, ['/ext/bin/linux-amd64/charter-lsp', '/usr/bin/charter-lsp']),
      want: { command: '/usr/bin/charter-lsp', source: 'path' },
    },
  ];
  for (const c of cases) {
    assert.deepEqual(findServer(c.env), c.want, c.name);
  }
});

test('findServer explains what is missing', () => {
  const none = findServer(env({}, []));
  assert.ok('error' in none);
  assert.match(none.error, /not found/);
  assert.match(none.error, /linux-x64/);
  const badSetting = findServer(env({ configured: '/nope/charter-lsp' }, ['/usr/bin/charter-lsp']));
  assert.ok('error' in badSetting, 'a wrong setting must not silently fall back');
  assert.match(badSetting.error, /\/nope\/charter-lsp/);
});

test('platformDir uses Go names', () => {
  assert.equal(platformDir('linux', 'x64'), 'linux-amd64');
  assert.equal(platformDir('win32', 'x64'), 'windows-amd64');
  assert.equal(platformDir('sunos', 'x64'), undefined);
});

test('expandSetting', () => {
  assert.equal(expandSetting('${workspaceFolder}/bin/x', '/h', '/ws'), '/ws/bin/x');
  assert.equal(expandSetting(' ~ ', '/h', undefined), '/h');
  assert.equal(expandSetting('charter-lsp', '/h', '/ws'), 'charter-lsp');
});

test('every release package finds the server it bundles', () => {
  // make release builds one package per VS Code target, with the server in the folder the
  // Makefile's goplat_<target> names; the extension must look in that same folder.
  const makefile = fs.readFileSync(path.join(__dirname, '..', '..', 'Makefile'), 'utf8');
  const targets = [...makefile.matchAll(/^goplat_(\S+)\s*:=\s*(\S+)$/gm)].map((m) => ({ target: m[1], dir: m[2] }));
  assert.deepEqual(
    targets.map((t) => t.target).sort(),
    ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-arm64', 'win32-x64'],
  );
  for (const { target, dir } of targets) {
    const [platform, arch] = target.split('-');
    const exe = platform === 'win32' ? 'charter-lsp.exe' : 'charter-lsp';
    const bundled = path.join('/ext', 'bin', dir, exe);
    assert.deepEqual(
      findServer(env({ platform, arch, pathEnv: '' }, [bundled])),
      { command: bundled, source: 'bundled' },
      target,
    );
  }
});
