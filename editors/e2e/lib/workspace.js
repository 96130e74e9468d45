// The test workspace: a fresh copy of testdata/workspace in a temp dir, so tests never
// change the repository. src/ is dated after the recorded evidence, which makes
// VAL-SESS-001's fresh-required pass stale whatever the checkout's file times are.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');

const TESTDATA = path.join(__dirname, '..', 'testdata');
const SOURCE_CHANGED = new Date('2026-11-20T12:00:00Z');

function makeWorkspace(prefix = 'charter-e2e-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(path.join(TESTDATA, 'workspace'), dir, { recursive: true });
  // The copy keeps the source's modes; editors open read-only files read-only.
  execFileSync('chmod', ['-R', 'u+w', dir]);
  // Everything else keeps an old time, so only src/ looks newer than the evidence.
  const old = new Date('2026-11-01T00:00:00Z');
  for (const f of walk(dir)) {
    fs.utimesSync(f, old, old);
  }
  const token = path.join(dir, 'src', 'auth', 'token.go');
  fs.utimesSync(token, SOURCE_CHANGED, SOURCE_CHANGED);
  return {
    dir,
    file: (rel) => path.join(dir, rel),
    uri: (rel) => pathToFileURL(path.join(dir, rel)).href,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function* walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      yield* walk(p);
    } else {
      yield p;
    }
  }
}

/** Evidence files under a charter's work/ folder, newest path last. */
function evidenceFiles(charterDir) {
  const work = path.join(charterDir, 'work');
  if (!fs.existsSync(work)) {
    return [];
  }
  return [...walk(work)].filter((f) => path.basename(f) === 'evidence.json').sort();
}

const expectations = () => JSON.parse(fs.readFileSync(path.join(TESTDATA, 'expect.json'), 'utf8'));

/** The server binary: $CHARTER_LSP, else the repo's bin/charter-lsp. */
const serverBinary = () => process.env.CHARTER_LSP || path.resolve(__dirname, '..', '..', '..', 'bin', 'charter-lsp');

module.exports = { makeWorkspace, evidenceFiles, expectations, serverBinary, walk, TESTDATA };
