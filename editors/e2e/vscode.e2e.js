// VS Code end-to-end: installs the built .vsix into a fresh code-server (VS Code 1.100.3 in
// the browser), opens a copy of testdata/workspace in headless Chromium and checks, in the
// UI, what a user would see:
//   1. the expected diagnostics, with their codes and lines, in the Problems panel;
//   2. hovering a VAL heading shows its status;
//   3. the "Ask next interview question" code action inserts the question into charter.md,
//      and the palette command asks the next one after the user answers;
//   4. "Charter: Record evidence…" (quick picks and input boxes) writes evidence.json;
//   5. "Charter: Show status" opens the status view with the completion blockers the server reports;
//   6. "Charter: Interview" is a conversation in input boxes: the server's title ("Q1 of 5 ·
//      Brain Dump (asked by fake-agent)"), Enter answers, the Skip and Finish buttons, Esc
//      stops; the same for a skeleton charter's regions, which the agent then finalizes. The
//      interview agent is the user setting charter.interviewAgent (a script running the
//      server's own interview, behind rp1's contract); the workspace's .vscode/settings.json
//      names another one, which never runs.
//   7. Peek References on a VAL lists its files and the test citing it, its lens counts the
//      citations, and F2 renames it everywhere, the refactor preview asking before the evidence.
//   8. An rp1 scratch-pad charter's "Migrate to rp1's skeleton charter" action: offered without its
//      edit, made at codeAction/resolve, shown unticked in the refactor preview, applied once ticked.
// Screenshots and logs go to editors/e2e/artifacts/vscode/. Prints TAP-like lines and
// "N passed, N failed"; exits 1 when a check fails.
//   VSIX        the extension (default editors/vscode/charter-lsp.vsix; `make vsix` builds it)
//   E2E_CACHE   where install-deps.sh put code-server (default editors/.e2e-cache)
//   CHROMIUM    browser binary (default /usr/bin/chromium)
//   CHARTER_LSP run this server binary instead of the bundled one (charter.server.path)
//   KEEP=1      leave code-server running and the temp dirs in place, for debugging
'use strict';
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');
const { makeWorkspace, expectations, evidenceFiles, walk } = require('./lib/workspace');
const { freePort, healthy } = require('./lib/codeserver');

const HERE = __dirname;
const CACHE = process.env.E2E_CACHE || path.join(HERE, '..', '.e2e-cache');
const CODE_SERVER = path.join(CACHE, 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
const VSIX = path.resolve(process.env.VSIX || path.join(HERE, '..', 'vscode', 'charter-lsp.vsix'));
const ARTIFACTS = path.join(HERE, 'artifacts', 'vscode');
const X = expectations();
const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)}s`;

function fail(msg) {
  console.error(`vscode e2e: ${msg}`);
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Text as the DOM renders it, with non-breaking spaces made plain. */
const plain = (s) => s.replace(/\u00a0/g, ' ');

async function main() {
  if (!fs.existsSync(CODE_SERVER)) fail(`code-server not installed at ${CODE_SERVER}; run editors/e2e/install-deps.sh`);
  if (!fs.existsSync(VSIX)) fail(`no extension at ${VSIX}; run make vsix`);
  const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(browserPath)) fail(`no browser at ${browserPath}; apt-get install -y chromium`);

  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const ws = makeWorkspace('charter-vscode-ws-');
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'charter-vscode-run-'));
  // The interview agent (a user setting): the server's own interview behind rp1's contract.
  const serverBin = path.resolve(process.env.CHARTER_LSP || path.join(HERE, '..', 'vscode', 'bin', 'linux-amd64', 'charter-lsp'));
  if (!fs.existsSync(serverBin)) fail(`no server binary at ${serverBin} for the fake interview agent`);
  const agent = path.join(run, 'fake-agent');
  fs.writeFileSync(agent, `#!/bin/sh\nexec '${serverBin}' interview "$1" --mode "$2"\n`, { mode: 0o755 });
  // What the workspace's own settings name: a script that must never run.
  const workspaceAgentRan = path.join(run, 'workspace-agent-ran');
  const workspaceAgent = path.join(run, 'workspace-agent');
  fs.writeFileSync(workspaceAgent, `#!/bin/sh\ntouch '${workspaceAgentRan}'\n`, { mode: 0o755 });
  fs.mkdirSync(path.join(ws.dir, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws.dir, '.vscode', 'settings.json'), JSON.stringify({ 'charter.interviewAgent': workspaceAgent }, null, 2));
  // Charters for the conversation: a new one, and a skeleton with one gap.
  fs.mkdirSync(path.join(ws.dir, 'conv', '.rp1', 'context'), { recursive: true });
  fs.writeFileSync(path.join(ws.dir, 'conv', '.rp1', 'context', 'charter.md'), '');
  fs.mkdirSync(path.join(ws.dir, 'ferry', '.rp1', 'context'), { recursive: true });
  fs.writeFileSync(path.join(ws.dir, 'ferry', '.rp1', 'context', 'charter.md'), [
    '# Project Charter: ferrylog', '**Status**: Draft', '', '## Vision', '_TBD_', '',
    '## Problem & Context', 'Crossings are logged on paper.', '', '## Target Users', 'Deck officers at sea.', '',
    '## Business Rationale', 'One entry at sea.', '', '## Scope Guardrails', '### Will', '- Offline logging', "### Won't", '- Payroll', '',
    '## Success Criteria', 'No log is retyped.', '',
  ].join('\n'));
  const port = await freePort();

  // All code-server and browser state lives in the run dir, never in $HOME.
  const dirs = { ud: 'user-data', ext: 'extensions', home: 'home', cfg: 'xdg-config', data: 'xdg-data', cache: 'xdg-cache' };
  for (const k of Object.keys(dirs)) {
    dirs[k] = path.join(run, dirs[k]);
    fs.mkdirSync(dirs[k], { recursive: true });
  }
  fs.mkdirSync(path.join(dirs.ud, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(dirs.ud, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.tips.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'workbench.enableExperiments': false,
        'editor.hover.delay': 200,
        'editor.lightbulb.enabled': 'on',
        'files.autoSave': 'off',
        'charter.trace.server': 'messages',
        'charter.interviewAgent': agent,
        // Test another server build without repackaging the vsix.
        ...(process.env.CHARTER_LSP ? { 'charter.server.path': path.resolve(process.env.CHARTER_LSP) } : {}),
      },
      null,
      2,
    ),
  );
  const configFile = path.join(run, 'config.yaml');
  fs.writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env = { ...process.env, HOME: dirs.home, XDG_CONFIG_HOME: dirs.cfg, XDG_DATA_HOME: dirs.data, XDG_CACHE_HOME: dirs.cache };
  const csArgs = [
    '--config', configFile, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--user-data-dir', dirs.ud, '--extensions-dir', dirs.ext,
  ];

  cp.execFileSync(CODE_SERVER, [...csArgs, '--install-extension', VSIX], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const installed = fs.readdirSync(dirs.ext).filter((d) => d.startsWith('charter-lsp.charter-lsp'));
  if (installed.length === 0) fail('the vsix did not install');
  console.log(`# vsix installed (${installed[0]}) ${elapsed()}`);

  const log = fs.openSync(path.join(ARTIFACTS, 'code-server.log'), 'w');
  const cs = cp.spawn(CODE_SERVER, [...csArgs, ws.dir], { env, stdio: ['ignore', log, log], detached: true });
  const cleanup = () => {
    if (process.env.KEEP) return;
    try {
      process.kill(-cs.pid, 'SIGTERM');
    } catch {}
    ws.remove();
    fs.rmSync(run, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  for (let i = 0; i < 240 && !(await healthy(port)); i++) await sleep(250);
  if (!(await healthy(port))) fail(`code-server did not come up on port ${port}; see ${path.join(ARTIFACTS, 'code-server.log')}`);
  console.log(`# code-server up on 127.0.0.1:${port} ${elapsed()}`);

  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    env: { ...env, HOME: dirs.home },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));

  let passed = 0;
  let failed = 0;
  let n = 0;
  const done = new Set();
  const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) }).catch(() => {});
  async function check(name, needs, fn) {
    n++;
    const missing = needs.filter((d) => !done.has(d));
    if (missing.length > 0) {
      failed++;
      console.log(`not ok ${n} - ${name}: not run, "${missing[0]}" failed earlier`);
      return;
    }
    const slug = `${String(n).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
    try {
      await fn();
      passed++;
      done.add(name);
      await shot(slug);
      console.log(`ok ${n} - ${name} ${elapsed()}`);
    } catch (e) {
      failed++;
      await shot(`${slug}-FAILED`);
      const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts().catch(() => []);
      const note = toasts.length ? `\nnotifications: ${JSON.stringify(toasts.map((t) => plain(t).replace(/\s+/g, ' ')))}` : '';
      console.log(`not ok ${n} - ${name}: ${(String(e.message || e) + note).split('\n').join('\n    ')}`);
      // Leave no widget open for the next check.
      await page.keyboard.press('Escape').catch(() => {});
      await page.keyboard.press('Escape').catch(() => {});
    }
  }

  // --- UI helpers ---------------------------------------------------------------------------
  /** The editor's rendered lines, top to bottom, with their document line numbers (1-based). */
  const numberedLines = () =>
    page.evaluate(() => {
      const ed = document.querySelector('.editor-group-container.active .editor-instance .monaco-editor') ||
        document.querySelector('.editor-instance .monaco-editor');
      if (!ed) return [];
      const nums = new Map(
        [...ed.querySelectorAll('.margin-view-overlays > div')].map((e) => [parseFloat(e.style.top), (e.querySelector('.line-numbers') || {}).textContent]),
      );
      return [...ed.querySelectorAll('.view-lines .view-line')]
        .map((e) => ({ top: parseFloat(e.style.top) || 0, text: (e.textContent || '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => ({ n: Number(nums.get(l.top)) || undefined, text: l.text }));
    });
  const editorLines = async () => (await numberedLines()).map((l) => l.text);
  const focusEditor = async () => {
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click({ position: { x: 5, y: 5 } });
  };
  async function palette(text, choose = text) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10000 });
    await input.fill(`>${text}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: choose }).first();
    await row.waitFor({ timeout: 10000 });
    await row.click();
  }
  async function goTo(line, column) {
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10000 });
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
    await sleep(300);
  }
  /** Opens the workspace's top-level charter.md from the Explorer (the .pi one is deeper). */
  async function openRootCharter() {
    const rows = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^charter\.md$/ });
    const levels = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('aria-level') || 99)));
    if (levels.length === 0) throw new Error('no charter.md in the Explorer');
    await rows.nth(levels.indexOf(Math.min(...levels))).click();
    await page.locator('.tab.active', { hasText: 'charter.md' }).waitFor({ timeout: 15000 });
    await page.waitForSelector('.editor-instance .monaco-editor .view-lines', { timeout: 15000 });
  }
  async function quickOpen(name, hasText) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10000 });
    await input.fill(name);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: hasText ?? name }).first();
    await row.waitFor({ timeout: 15000 });
    await row.click();
    await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15000 });
  }
  // A marker row shows "message  charter(code) [Ln l, Col c]"; the parentheses may be CSS.
  const codeRe = (code) => new RegExp(`\\bcharter\\W{1,3}${code}\\b`);
  /** Problems rows as { text, line } for the markers of one file. */
  async function problemRows() {
    const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
    return rows.map((t) => {
      const text = plain(t).replace(/\s+/g, ' ');
      const m = /\[Ln (\d+), Col (\d+)\]/.exec(text);
      return { text, line: m ? Number(m[1]) - 1 : undefined };
    });
  }
  /** Types into the Problems filter box ('' clears it); the list is virtualised, so filter to see a row. */
  async function filterProblems(text) {
    const box = page.locator('.markers-panel-container input, .panel input[placeholder^="Filter"]').first();
    await box.fill(text).catch(() => {});
    await sleep(300);
  }
  async function expectProblems(expected, fileLabel) {
    const deadline = Date.now() + 30000;
    let rows = [];
    let missing = expected;
    const found = new Set();
    while (Date.now() < deadline) {
      for (const e of expected) {
        if (found.has(e)) continue;
        await filterProblems(e.code);
        rows = await problemRows();
        if (rows.some((r) => codeRe(e.code).test(r.text) && r.line !== undefined && r.line >= e.lines[0] && r.line <= e.lines[1])) found.add(e);
      }
      missing = expected.filter((e) => !found.has(e));
      if (missing.length === 0) {
        await filterProblems('');
        return rows;
      }
      await sleep(500);
    }
    await filterProblems('');
    rows = await problemRows();
    throw new Error(
      `Problems panel lacks for ${fileLabel}: ${missing.map((e) => `${e.code} on lines ${e.lines[0] + 1}-${e.lines[1] + 1}`).join('; ')}\n` +
        `rows: ${JSON.stringify(rows.map((r) => r.text))}`,
    );
  }

  try {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws.dir)}`);
    await page.waitForSelector('.monaco-workbench .explorer-folders-view .monaco-list-row', { timeout: 90000 });
    console.log(`# workbench rendered ${elapsed()}`);

    await check('open charter.md: the extension starts the server', [], async () => {
      await openRootCharter();
      await focusEditor();
      await page.keyboard.press('Control+Shift+M');
      await page.waitForSelector('.markers-panel', { timeout: 15000 });
      // Room for every row: the Problems list only renders what is visible.
      await palette('View: Toggle Maximized Panel');
      await expectProblems(X.charter.diagnostics, 'charter.md');
    });

    await check('Problems panel lists each diagnostic once', ['open charter.md: the extension starts the server'], async () => {
      const rows = (await problemRows()).filter((r) => r.line !== undefined);
      const seen = new Map();
      for (const r of rows) seen.set(r.text, (seen.get(r.text) || 0) + 1);
      const twice = [...seen].filter(([, k]) => k > 1).map(([t, k]) => `${k}x ${t}`);
      if (twice.length > 0) {
        throw new Error(`shown more than once (a server that both pushes and answers pull diagnostics shows each twice in VS Code):\n${twice.join('\n')}`);
      }
    });

    await check('Problems panel: criteria.md diagnostics with codes and lines', [], async () => {
      await quickOpen('criteria.md');
      await expectProblems(X.criteria.diagnostics, 'criteria.md');
      const status = await page.locator('#status\\.problems').innerText().catch(() => '?');
      console.log(`# status bar problems: ${JSON.stringify(plain(status))}`);
    });

    await check('hover on a VAL heading shows its status', [], async () => {
      await palette('View: Toggle Maximized Panel'); // give the editor its room back
      await quickOpen('criteria.md');
      await focusEditor();
      const h = X.criteria.hover;
      await goTo(h.line + 1, h.character + 1);
      // Mouse over the heading text, as a user would; fall back to the keyboard hover.
      const heading = page.locator('.editor-instance .view-line', { hasText: 'VAL-SESS-001' }).first();
      const box = await heading.boundingBox();
      if (box) await page.mouse.move(box.x + 60, box.y + box.height / 2);
      const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover:not(.hidden) .hover-contents');
      let text = '';
      const want = (t) => h.contains.every((w) => t.includes(w));
      for (let i = 0; i < 2 && !want(text); i++) {
        if (i === 1) {
          await goTo(h.line + 1, h.character + 1);
          await page.keyboard.press('Control+K');
          await page.keyboard.press('Control+I');
        }
        const deadline = Date.now() + 8000;
        while (Date.now() < deadline && !want(text)) {
          text = plain((await hover.allInnerTexts().catch(() => [])).join('\n'));
          await sleep(250);
        }
      }
      if (!want(text)) throw new Error(`hover lacks ${JSON.stringify(h.contains)}; hover text: ${JSON.stringify(text.slice(0, 300))}`);
    });

    await check('code action "Ask next interview question" inserts the question', [], async () => {
      await page.keyboard.press('Escape');
      await openRootCharter();
      const iv = X.charter.interview;
      await focusEditor();
      await goTo(iv.line + 1, iv.character + 1);
      const before = await editorLines();
      await page.keyboard.press('Control+.');
      const item = page.locator('.action-widget .monaco-list-row, .context-view .action-widget [role="option"]', { hasText: iv.title }).first();
      try {
        await item.waitFor({ timeout: 10000 });
      } catch {
        const offered = await page.locator('.action-widget').allInnerTexts().catch(() => []);
        const said = await page.locator('.monaco-editor-overlaymessage').allInnerTexts().catch(() => []);
        throw new Error(`no "${iv.title}" in the code action menu; it shows: ${JSON.stringify([...offered, ...said].map(plain))}`);
      }
      // Keyboard, as a user would: move the focus to the action, then Enter.
      for (let i = 0; i < 15; i++) {
        const focused = plain(await page.locator('.action-widget .monaco-list-row.focused').innerText().catch(() => ''));
        if (focused.includes(iv.title)) break;
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await checkNewLines(before, iv);
    });

    await check('palette "Charter: Ask next interview question" after an answer', ['code action "Ask next interview question" inserts the question'], async () => {
      // Answer the pending question: end of its **Answer**: line.
      const lines = await numberedLines();
      const answer = lines.find((l) => l.n && /^\*\*Answer\*\*:\s*$/.test(l.text));
      if (!answer) throw new Error(`no empty **Answer**: line to type into:\n${lines.map((l) => l.text).join('\n')}`);
      await goTo(answer.n, answer.text.length + 1);
      await page.keyboard.press('End');
      await page.keyboard.type(' It saves each on-call engineer an hour per incident and keeps runbooks current.');
      const before = await editorLines();
      await palette('Charter: Ask next interview question');
      const deadline = Date.now() + 15000;
      let after = before;
      while (Date.now() < deadline && !after.some((l) => /^### Q3: /.test(l))) {
        await sleep(300);
        after = await editorLines();
      }
      if (!after.some((l) => /^### Q3: /.test(l))) {
        const toasts = await page.locator('.notifications-toasts').allInnerTexts().catch(() => []);
        throw new Error(`no "### Q3:" entry after the command; notifications: ${JSON.stringify(toasts.map(plain))}\n${after.join('\n')}`);
      }
      // The command is the conversation: its input box asks Q3; Esc leaves it in the file.
      await waitTitle(/^Q3 of 5 · /);
      await page.keyboard.press('Escape');
    });

    await check('palette "Charter: Interview": the conversation in input boxes (answer, Skip, Esc)', [], async () => {
      await openRel('conv/.rp1/context/charter.md');
      await palette('Charter: Interview');
      const t1 = await waitTitle(/^Q1 of 5 · Brain Dump \(asked by fake-agent\)$/);
      const prompt = plain(await page.locator('.quick-input-widget .quick-input-message').innerText().catch(() => ''));
      if (!prompt.startsWith('Tell me everything about this project.')) throw new Error(`Q1's prompt: ${JSON.stringify(prompt)} (title ${t1})`);
      await page.locator('.quick-input-widget input').fill('The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers.');
      await page.keyboard.press('Enter');
      await waitTitle(/^Q2 of 5 · Value Proposition \(asked by fake-agent\)$/);
      await shot('07a-the-input-box-with-its-buttons');
      await inputButton('Skip').click();
      await waitTitle(/^Q3 of 5 · Scope \(asked by fake-agent\)$/);
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
      const lines = await editorLines();
      const text = lines.join('\n');
      for (const want of ['### Q1: Brain Dump', '### Q2: Value Proposition', '**Skipped**: Skipped by the user.', '### Q3: Scope']) {
        if (!text.includes(want)) throw new Error(`the charter lacks ${JSON.stringify(want)}:\n${text}`);
      }
      if (!lines.some((l) => /^\*\*Answer\*\*:\s*$/.test(l))) throw new Error(`Q3 is not waiting for its answer:\n${text}`);
    });

    await check('"Charter: Interview" again: the pending question, then Finish', ['palette "Charter: Interview": the conversation in input boxes (answer, Skip, Esc)'], async () => {
      await palette('Charter: Interview');
      await waitTitle(/^Q3 of 5 · Scope/);
      await inputButton('Finish').click();
      await toast(/The charter is finished: sections written, scratch pad removed/);
      // Back in the editor (the input box gave the focus back): scroll to the top.
      await page.keyboard.press('Control+Home');
      await sleep(300);
      const text = (await editorLines()).join('\n');
      if (text.includes('## Scratch Pad') || !text.includes('## Problem & Context')) throw new Error(`not finished:\n${text}`);
    });

    await check('"Charter: Interview" on a skeleton charter: the region, then the agent finalizes it', [], async () => {
      await openRel('ferry/.rp1/context/charter.md');
      await palette('Charter: Interview');
      await waitTitle(/^Region 1 of 7 · Vision$/);
      await page.locator('.quick-input-widget input').fill('Every crossing logged once, at sea.');
      await page.keyboard.press('Enter');
      await toast(/Every region of the charter is written; \*\*Status\*\*: Complete\. The interview agent \(fake-agent\) finalized it: complete\./);
      const text = (await editorLines()).join('\n');
      if (!text.includes('Every crossing logged once, at sea.') || !text.includes('**Status**: Complete')) throw new Error(`charter:\n${text}`);
    });

    await check('the agent named in the workspace settings never runs', ['palette "Charter: Interview": the conversation in input boxes (answer, Skip, Esc)'], async () => {
      if (fs.existsSync(workspaceAgentRan)) throw new Error('the workspace settings\' agent ran');
    });

    await check('palette "Charter: Record evidence…": pick VAL, outcome, summary', [], async () => {
      await quickOpen('criteria.md');
      const charterDir = path.dirname(ws.file(X.criteria.file));
      const before = new Set(evidenceFiles(charterDir));
      const input = page.locator('.quick-input-widget input');
      const pick = async (label) => {
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
        await row.waitFor({ timeout: 15000 });
        await input.fill(label);
        await sleep(200);
        await page.keyboard.press('Enter');
      };
      await palette('Charter: Record evidence');
      await pick('VAL-SESS-002'); // 1/3: the VAL
      await pick('fail'); // 2/3: the outcome
      await page.locator('.quick-input-widget', { hasText: '3/3' }).waitFor({ timeout: 10000 });
      await input.fill('still returns 500 for an expired token');
      await page.keyboard.press('Enter');
      // Manual VALs (or a status that does not say) ask why; answer if asked.
      const why = page.locator('.quick-input-widget:visible', { hasText: 'Why is this evidence enough' });
      if (await why.waitFor({ timeout: 1500 }).then(() => true, () => false)) {
        await input.fill('reproduced with curl');
        await page.keyboard.press('Enter');
      }
      // The edit creates the file, then the extension saves its content: wait for both.
      const written = (f) => fs.readFileSync(f, 'utf8').trim() !== '';
      const deadline = Date.now() + 15000;
      let added = [];
      while (Date.now() < deadline && !(added.length > 0 && added.every(written))) {
        await sleep(300);
        added = evidenceFiles(charterDir).filter((f) => !before.has(f));
      }
      if (added.length !== 1) throw new Error(`expected one new evidence.json, got ${JSON.stringify(added)}`);
      const row = JSON.parse(fs.readFileSync(added[0], 'utf8') || 'null');
      const rec = Array.isArray(row) ? row[0] : row;
      if (!rec || rec.criterionId !== 'VAL-SESS-002' || rec.outcome !== 'fail') throw new Error(`evidence.json holds ${JSON.stringify(row)}`);
    });

    await check('palette "Charter: Show status" opens the status view', [], async () => {
      await palette('Charter: Show status');
      await page.locator('.tab', { hasText: 'Charter status' }).waitFor({ timeout: 15000 });
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      const body = frame.locator('body.charter-status');
      await body.waitFor({ timeout: 15000 });
      const text = plain(await body.innerText());
      if (!text.includes(X.status.charterId)) throw new Error(`status view lacks ${X.status.charterId}: ${JSON.stringify(text.slice(0, 300))}`);
      // The blockers the server reports, as the server rendered them (not "None.").
      const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
      const heading = lines.findIndex((l) => /^Completion blockers \(\d+\)$/.test(l));
      if (heading < 0) throw new Error(`status view has no "Completion blockers" heading:\n${text}`);
      if (lines[heading + 1] === 'None.') throw new Error(`status view says None. under Completion blockers:\n${text}`);
      for (const want of ["val-not-pass VAL-SESS-002: VAL-SESS-002's latest outcome is fail", 'report-empty-section: REPORT.md ## Outcome needs content']) {
        if (!lines.some((l) => l.includes(want))) throw new Error(`status view lacks the blocker "${want}":\n${text}`);
      }
    });

    // --- ids: references, the "cited in" lens, rename with the refactor preview ---------------
    const I = X.ids;
    const readRel = (rel) => fs.readFileSync(ws.file(rel), 'utf8');
    const names = (text, id) => new RegExp(`${id.replace(/-/g, '\\-')}(?![A-Z0-9-])`).test(text);

    await check('Peek References on a VAL lists its files, the test that cites it too', [], async () => {
      // One editor group again (the status view opened beside), so criteria.md has one tab.
      await palette('View: Join All Editor Groups');
      await quickOpen('criteria.md');
      await focusEditor();
      await goTo(I.line + 1, I.character + 1);
      await page.keyboard.press('Shift+F12');
      const peek = page.locator('.peekview-widget');
      await peek.first().waitFor({ timeout: 15000 });
      const want = I.references.map((r) => path.basename(r));
      const deadline = Date.now() + 15000;
      let text = '';
      while (Date.now() < deadline && !want.every((w) => text.includes(w))) {
        text = plain((await peek.allInnerTexts().catch(() => [])).join('\n'));
        await sleep(300);
      }
      await page.keyboard.press('Escape');
      const missing = want.filter((w) => !text.includes(w));
      if (missing.length > 0) throw new Error(`the references peek lacks ${JSON.stringify(missing)}: ${JSON.stringify(text.slice(0, 400))}`);
    });

    await check('the VAL heading\'s code lens says how many places cite it', [], async () => {
      await quickOpen('criteria.md');
      const lens = page.locator('.codelens-decoration', { hasText: I.lens });
      await lens.first().waitFor({ timeout: 15000 }).catch(async () => {
        const all = await page.locator('.codelens-decoration').allInnerTexts().catch(() => []);
        throw new Error(`no "${I.lens}" lens; the lenses: ${JSON.stringify(all.map(plain))}`);
      });
    });

    await check('F2 rename: the refactor preview asks before the evidence changes; confirmed, every file moves', [], async () => {
      await quickOpen('criteria.md'); // focuses its editor
      await goTo(I.line + 1, I.character + 1);
      const charterDir = path.dirname(ws.file(X.criteria.file));
      const history = evidenceFiles(charterDir).filter((f) => names(fs.readFileSync(f, 'utf8'), I.criterionId));
      await page.keyboard.press('F2');
      const box = page.locator('.rename-box input, .rename-box textarea').first();
      await box.waitFor({ timeout: 10000 });
      await box.fill(I.rename.to);
      await page.keyboard.press('Enter');
      // The history edits need confirmation: VS Code shows the refactor preview, with them unchecked.
      const pane = page.locator('.bulk-edit-panel');
      await pane.first().waitFor({ timeout: 15000 });
      // Room for every row: the preview's tree only renders what is visible.
      await palette('View: Toggle Maximized Panel');
      await sleep(500);
      const box_ = '.edit-checkbox, .monaco-custom-toggle, input[type=checkbox]';
      const readRows = () =>
        pane.locator('.monaco-list-row').evaluateAll((els, sel) =>
          els.map((e) => {
            const cb = e.querySelector(sel);
            const checked = !cb ? null : cb.tagName === 'INPUT' ? cb.checked : cb.classList.contains('checked') || cb.getAttribute('aria-checked') === 'true';
            return { text: e.innerText.replace(/\u00a0/g, ' ').replace(/\s+/g, ' '), checked };
          }), box_);
      const rows = await readRows();
      const isHistory = (t) => t.includes('evidence.json') || t.includes('"criterionId"');
      const wrong = rows.filter((r) => r.checked !== null && r.checked === isHistory(r.text));
      if (rows.length === 0 || wrong.length > 0) {
        throw new Error(`the preview should leave exactly the evidence unchecked; rows: ${JSON.stringify(rows)}`);
      }
      // The user confirms: ticks the evidence too (a file's tick ticks its changes: one at a
      // time, looking again after each), then applies.
      const checkboxes = pane.locator(`.monaco-list-row :is(${box_})`);
      for (let k = 0; k < 20; k++) {
        const states = (await readRows()).filter((r) => r.checked !== null).map((r) => r.checked);
        const i = states.indexOf(false);
        if (i < 0) break;
        await checkboxes.nth(i).click();
        await sleep(200);
      }
      await pane.getByRole('button', { name: 'Apply', exact: true }).click();
      await palette('View: Toggle Maximized Panel'); // the editor gets its room back
      await sleep(1000);
      await palette('File: Save All');
      const deadline = Date.now() + 15000;
      const pending = () => [...I.rename.moves.map((r) => ws.file(r)), ...history].filter((f) => !names(fs.readFileSync(f, 'utf8'), I.rename.to));
      while (Date.now() < deadline && pending().length > 0) await sleep(300);
      if (pending().length > 0) throw new Error(`not renamed: ${JSON.stringify(pending().map((f) => path.relative(ws.dir, f)))}`);
      for (const rel of I.rename.moves) if (names(readRel(rel), I.criterionId)) throw new Error(`${rel} still names ${I.criterionId}`);
      // The saved test reaches the server's file watcher; the server asks VS Code to refresh
      // its lenses, and the renamed VAL's lens counts its cites again.
      await page.locator('.codelens-decoration', { hasText: I.lens }).first().waitFor({ timeout: 15000 }).catch(async () => {
        const all = await page.locator('.codelens-decoration').allInnerTexts().catch(() => []);
        throw new Error(`after the rename, no "${I.lens}" lens; the lenses: ${JSON.stringify(all.map(plain))}`);
      });
    });

    // --- migration: an rp1 scratch-pad charter rewritten in the skeleton format -----------------
    await check('code action "Migrate to rp1\'s skeleton charter": offered without its edit, made at resolve, previewed, applied', [], async () => {
      // A charter of the scratch-pad era (rp1's own shape: two answered questions), written now so
      // the checks above see the workspace as it was.
      const rel = 'plants/.rp1/context/charter.md';
      const before = fs.readFileSync(path.join(HERE, '..', '..', 'analysis', 'rp1', 'testdata', 'resume-after-q2.md'), 'utf8');
      fs.mkdirSync(path.dirname(ws.file(rel)), { recursive: true });
      fs.writeFileSync(ws.file(rel), before);
      await openRel(rel);
      await focusEditor();
      await goTo(1, 1);
      const title = "Migrate to rp1's skeleton charter";
      await page.keyboard.press('Control+.');
      const item = page.locator('.action-widget .monaco-list-row, .context-view .action-widget [role="option"]', { hasText: title }).first();
      try {
        await item.waitFor({ timeout: 10000 });
      } catch {
        const offered = await page.locator('.action-widget').allInnerTexts().catch(() => []);
        throw new Error(`no "${title}" in the code action menu; it shows: ${JSON.stringify(offered.map(plain))}`);
      }
      for (let i = 0; i < 15; i++) {
        const focused = plain(await page.locator('.action-widget .monaco-list-row.focused').innerText().catch(() => ''));
        if (focused.includes(title)) break;
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      // The rewrite needs confirmation (a change annotation): VS Code shows it in the refactor
      // preview, unticked; the user reads it, ticks it and applies.
      const pane = page.locator('.bulk-edit-panel');
      await pane.first().waitFor({ timeout: 15000 });
      const toggles = pane.locator('.monaco-list-row :is(.edit-checkbox, .monaco-custom-toggle, input[type=checkbox])');
      await toggles.first().waitFor({ timeout: 10000 });
      const ticked = () => toggles.evaluateAll((els) => els.map((cb) => (cb.tagName === 'INPUT' ? cb.checked : cb.classList.contains('checked') || cb.getAttribute('aria-checked') === 'true')));
      if ((await ticked()).some(Boolean)) throw new Error(`the rewrite was ticked before the user confirmed it: ${JSON.stringify(await ticked())}`);
      await toggles.first().click(); // the file's tick ticks its change
      await sleep(200);
      if (!(await ticked()).every(Boolean)) throw new Error(`ticking the file left ${JSON.stringify(await ticked())}`);
      await pane.getByRole('button', { name: 'Apply', exact: true }).click();
      await sleep(500);
      await palette('File: Save All');
      const migrated = () => {
        const t = readRel(rel);
        return /^## Target Users\n\nRenters in cities with 5-30 plants\./m.test(t) && /^## Vision\n/m.test(t) && /^### Q1: Brain Dump$/m.test(t);
      };
      const deadline = Date.now() + 15000;
      while (Date.now() < deadline && !migrated()) await sleep(300);
      if (!migrated()) throw new Error(`not rewritten in the skeleton format (Target Users placed, Q1 kept in the scratch pad):\n${readRel(rel)}`);
      // VS Code asked for the edit when the action was chosen: the offer carried none.
      const logs = path.join(dirs.ud, 'logs');
      const trace = fs.existsSync(logs) ? [...walk(logs)].map((f) => fs.readFileSync(f, 'utf8')).join('\n') : '';
      if (!trace.includes('codeAction/resolve')) throw new Error(`no codeAction/resolve request in the client's trace (${logs})`);
      // VS Code resolves the command actions picked above too (the interview's): none was refused.
      const refused = trace.split('\n').filter((l) => l.includes('Request codeAction/resolve failed') || /codeAction\/resolve.*Request failed/.test(l));
      if (refused.length > 0) throw new Error(`codeAction/resolve failed in VS Code:\n${refused.join('\n')}`);
    });
  } finally {
    // The extension's output channel shows what the client and server said.
    fs.writeFileSync(path.join(ARTIFACTS, 'browser-console.log'), consoleLines.join('\n'));
    const logs = path.join(dirs.ud, 'logs');
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(ARTIFACTS, 'vscode-logs'), { recursive: true });
    await browser.close();
  }

  /** Opens a file by its path in the workspace (Quick Open), waiting for its tab. */
  async function openRel(rel) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10000 });
    await input.fill(rel);
    const dir = path.dirname(rel);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: dir }).first();
    await row.waitFor({ timeout: 15000 });
    await row.click();
    const deadline = Date.now() + 15000;
    while (Date.now() < deadline) {
      // The breadcrumbs above the editor show the file's folders.
      const crumbs = plain(await page.locator('.editor-group-container.active .breadcrumbs-control').first().innerText().catch(() => ''));
      if (crumbs.includes(dir.split('/')[0]) && crumbs.includes(path.basename(rel))) return;
      await sleep(200);
    }
    throw new Error(`${rel} did not open`);
  }
  /** Waits for the input box's title to match re and returns it. */
  async function waitTitle(re) {
    const title = page.locator('.quick-input-widget .quick-input-title');
    const deadline = Date.now() + 20000;
    let text = '';
    while (Date.now() < deadline) {
      text = plain(await title.innerText().catch(() => ''));
      if (re.test(text)) return text;
      await sleep(200);
    }
    const toasts = await page.locator('.notifications-toasts').allInnerTexts().catch(() => []);
    throw new Error(`no input box titled ${re}; title ${JSON.stringify(text)}; notifications: ${JSON.stringify(toasts.map(plain))}`);
  }
  /** The input box's title-bar button whose tooltip starts with label (the server's words). */
  function inputButton(label) {
    return page.locator(`.quick-input-widget .quick-input-titlebar .action-label[aria-label^="${label}:"], .quick-input-widget .quick-input-titlebar .action-label[title^="${label}:"]`).first();
  }
  /** Waits for a notification matching re. */
  async function toast(re) {
    const deadline = Date.now() + 20000;
    let texts = [];
    while (Date.now() < deadline) {
      texts = (await page.locator('.notifications-toasts .notification-toast').allInnerTexts().catch(() => [])).map((t) => plain(t).replace(/\s+/g, ' '));
      if (texts.some((t) => re.test(t))) return;
      await sleep(200);
    }
    throw new Error(`no notification matching ${re}: ${JSON.stringify(texts)}`);
  }

  async function checkNewLines(before, iv) {
    const deadline = Date.now() + 15000;
    let lines = before;
    let at = -1;
    const matchAll = () => {
      at = -1;
      for (const re of iv.newLines) {
        const i = lines.findIndex((l, k) => k > at && new RegExp(re).test(l));
        if (i < 0) return false;
        at = i;
      }
      return true;
    };
    while (Date.now() < deadline && !matchAll()) {
      await sleep(300);
      lines = await editorLines();
    }
    if (!matchAll()) throw new Error(`the document lacks lines matching ${JSON.stringify(iv.newLines)}:\n${lines.join('\n')}`);
    if (!lines.some((l) => new RegExp(iv.keep).test(l))) throw new Error('the earlier entry was lost');
  }

  console.log(`# artifacts: ${ARTIFACTS}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().then(() => process.exit(process.exitCode), (e) => {
  console.error(`vscode e2e: ${e.stack || e}`);
  process.exit(1);
});
