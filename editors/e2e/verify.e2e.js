// Running a criterion's check from VS Code (code-server + the built .vsix, in headless
// Chromium), as a user does it:
//   1. the "▶ Run `<command>`" code lens over a VAL; the server's question shows the command
//      verbatim; "Run" runs it, its output streams to the "Charter Verify" output channel, and
//      the evidence.json, its output.log and the criterion-state.json entry appear on disk, the
//      lens then showing the pass;
//   2. the Testing view lists the charters' criteria with their recorded outcome, and its Run
//      runs one (the server asks first); the Charters view in the explorer lists the charter
//      with its lifecycle, progress and next actions;
//   3. a long command cancelled from its progress notification records nothing;
//   4. a .charters/ criterion's Command: line gets its Status line written;
//   5. in Restricted Mode there is no Run lens and the command refuses, saying why.
// Screenshots and logs go to editors/e2e/artifacts/verify/. Prints TAP-like lines and
// "N passed, N failed"; exits 1 when a check fails. Environment: see lib/codeserver.js.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { openVSCode, checker, sleep } = require('./lib/codeserver');
const { evidenceFiles, TESTDATA } = require('./lib/workspace');

const ARTIFACTS = path.join(__dirname, 'artifacts', 'verify');
const CHARTER = '.pi/charters/v';

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'charter-verify-ws-'));
  fs.cpSync(path.join(TESTDATA, 'verify'), dir, { recursive: true });
  return dir;
}

const readJSON = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));

async function trustedSession(totals) {
  const ws = workspace();
  const charterDir = path.join(ws, CHARTER);
  const { page, close, ui } = await openVSCode({ folder: ws, artifacts: path.join(ARTIFACTS, 'trusted') });
  const { check, state } = checker(page, path.join(ARTIFACTS, 'trusted'));
  try {
    await check('the Run lens shows the command; the server asks with it verbatim; Run records the output', [], async () => {
      await ui.quickOpen('criteria.md');
      const lens = await ui.lens(/^▶ Run `echo verify-e2e-output && echo all checks passed`$/);
      await lens.click();
      const asked = await ui.answer('Run the command that verifies VAL-V-001', 'Run');
      if (!asked.includes('echo verify-e2e-output && echo all checks passed')) throw new Error(`the question does not show the command: ${asked}`);
      await ui.waitFor('the output in the Charter Verify channel', async () => (await ui.panelText()).includes('all checks passed'));
      const files = await ui.waitFor('evidence.json', async () => {
        const f = evidenceFiles(charterDir);
        return f.length === 1 && fs.existsSync(path.join(charterDir, 'criterion-state.json')) && f;
      });
      const row = readJSON(files[0]);
      if (row.criterionId !== 'VAL-V-001' || row.outcome !== 'pass' || row.source !== 'verifier' || row.details.exitCode !== 0 || row.details.command !== 'echo verify-e2e-output && echo all checks passed') {
        throw new Error(`evidence.json: ${JSON.stringify(row)}`);
      }
      const log = fs.readFileSync(path.join(charterDir, row.artifacts[0]), 'utf8');
      if (!log.includes('verify-e2e-output\nall checks passed\n')) throw new Error(`output.log: ${log}`);
      const st = readJSON(path.join(charterDir, 'criterion-state.json'));
      if (st.criteria['VAL-V-001'].outcome !== 'pass') throw new Error(`criterion-state.json: ${JSON.stringify(st)}`);
      console.log(`# recorded ${path.relative(charterDir, files[0])} and ${row.artifacts[0]}`);
    });

    await check('the VAL lens then shows the pass', ['the Run lens shows the command; the server asks with it verbatim; Run records the output'], async () => {
      await ui.lens(/^✓ pass/);
    });

    await check('Testing view: the criteria with their recorded outcome', ['the VAL lens then shows the pass'], async () => {
      await ui.palette('View: Show Testing', 'Testing');
      const rows = page.locator('.test-explorer .monaco-list-row');
      const texts = await ui.waitFor('the criteria of both charters in the Testing view', async () => {
        // Expand everything: the charters hold milestones, the milestones criteria.
        for (const r of await rows.all()) {
          if ((await r.getAttribute('aria-expanded')) === 'false') await r.click().catch(() => {});
        }
        const t = (await rows.allInnerTexts()).map((x) => x.replace(/\s+/g, ' '));
        return ['VAL-V-001', 'VAL-V-002', 'C1 — The parser streams', 'Verify from the editor', '20260701-000000-ship'].every((w) => t.some((x) => x.includes(w))) && t;
      });
      // The recorded outcome: VAL-V-001 passed, VAL-V-002 has none.
      const passed = await rows.filter({ hasText: 'VAL-V-001' }).locator('[class*="testing-passed"]').count();
      const v2 = await rows.filter({ hasText: 'VAL-V-002' }).locator('[class*="testing-passed"], [class*="testing-failed"]').count();
      if (passed === 0 || v2 !== 0) throw new Error(`icons: VAL-V-001 passed ${passed}, VAL-V-002 pass/fail ${v2}`);
      const described = await rows.filter({ hasText: 'VAL-V-001' }).first().getAttribute('aria-label');
      console.log(`# VAL-V-001 row: ${described}`);
      console.log(`# testing view: ${JSON.stringify(texts)}`);
    });

    await check('Testing view: Run on a criterion runs it after the server asks', ['Testing view: the criteria with their recorded outcome'], async () => {
      const row = page.locator('.test-explorer .monaco-list-row', { hasText: 'VAL-V-001' }).first();
      await row.hover();
      await row.locator('.action-label[aria-label^="Run Test"]').click();
      await ui.answer('Run the command that verifies VAL-V-001', 'Run');
      await ui.waitFor('a second evidence.json for VAL-V-001', async () => evidenceFiles(charterDir).length === 2);
      await ui.waitFor('the test run to pass', async () => (await row.locator('[class*="testing-passed"]').count()) > 0);
    });

    await check('Charters view: lifecycle, progress and next actions', [], async () => {
      await ui.palette('Explorer: Focus on Charters View', 'Charters');
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Charters' }) });
      const texts = await ui.waitFor('the charter in the Charters view', async () => {
        const t = (await pane.locator('.monaco-list-row').allInnerTexts()).map((x) => x.replace(/\s+/g, ' '));
        return t.some((x) => x.includes('Verify from the editor') && x.includes('active · 1/2 pass')) && t.some((x) => /Next actions/.test(x)) && t;
      });
      console.log(`# charters view: ${JSON.stringify(texts)}`);
    });

    await check('a long run cancelled from its progress records nothing', [], async () => {
      await ui.quickOpen('criteria.md');
      const lens = await ui.lens(/^▶ Run `echo started-long-check; sleep 120`$/);
      await lens.click();
      await ui.answer('Run the command that verifies VAL-V-002', 'Run');
      await ui.waitFor('the first line of output', async () => (await ui.panelText()).includes('started-long-check'));
      await ui.answer('Verify VAL-V-002', 'Cancel');
      await ui.waitFor('the run to say it recorded nothing', async () => (await ui.panelText()).includes('cancelled; nothing recorded'));
      await sleep(1000);
      const st = readJSON(path.join(charterDir, 'criterion-state.json'));
      if (st.criteria['VAL-V-002'] || evidenceFiles(charterDir).length !== 2) throw new Error(`the cancelled run recorded something: ${JSON.stringify(st)}`);
    });

    await check('a .charters criterion gets its Status line', [], async () => {
      await ui.quickOpen('charter.md', '20260701');
      const lens = await ui.lens(/^▶ Run `echo parsed 42\/42`$/);
      await lens.click();
      await ui.answer('Run the command that verifies C1', 'Run');
      const file = path.join(ws, '.charters/20260701-000000-ship/charter.md');
      await ui.waitFor('the Status line on disk', async () => /\nStatus: pass — `echo parsed 42\/42` exited 0 in .*: parsed 42\/42 \(output: work\/verify\/C1\//.test(fs.readFileSync(file, 'utf8')));
    });
  } finally {
    await close();
    fs.rmSync(ws, { recursive: true, force: true });
  }
  totals.passed += state.passed;
  totals.failed += state.failed;
}

async function restrictedSession(totals) {
  const ws = workspace();
  const { page, close, ui } = await openVSCode({ folder: ws, trusted: false, artifacts: path.join(ARTIFACTS, 'restricted') });
  const { check, state } = checker(page, path.join(ARTIFACTS, 'restricted'));
  try {
    await check('Restricted Mode: no Run lens, and the command refuses with the reason', [], async () => {
      await ui.quickOpen('criteria.md');
      await ui.lens(/^no evidence$/); // the server runs, and shows its other lenses
      await sleep(1000);
      const lenses = await ui.lenses();
      if (lenses.some((t) => t.startsWith('▶ Run'))) throw new Error(`a Run lens in Restricted Mode: ${JSON.stringify(lenses)}`);
      await ui.palette("Charter: Run the criterion's command");
      await ui.waitFor('the refusal', async () => (await ui.toasts()).some((t) => t.includes('needs a trusted workspace')));
      if (fs.existsSync(path.join(ws, CHARTER, 'work'))) throw new Error('something ran');
    });
  } finally {
    await close();
    fs.rmSync(ws, { recursive: true, force: true });
  }
  totals.passed += state.passed;
  totals.failed += state.failed;
}

(async () => {
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  const totals = { passed: 0, failed: 0 };
  await trustedSession(totals);
  await restrictedSession(totals);
  console.log(`# artifacts: ${ARTIFACTS}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(totals.failed > 0 ? 1 : 0);
})().catch((e) => {
  console.error(`verify e2e: ${e.stack || e}`);
  process.exit(1);
});
