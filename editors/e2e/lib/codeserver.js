// A fresh code-server (VS Code 1.100.3 in the browser) with the built .vsix installed,
// opened on a workspace folder in headless Chromium, for end-to-end checks of what a user
// sees. All state (code-server's, the browser's, HOME) lives in a temp folder.
//   VSIX        the extension (default editors/vscode/charter-lsp.vsix; `make vsix` builds it)
//   E2E_CACHE   where install-deps.sh put code-server (default editors/.e2e-cache)
//   CHROMIUM    browser binary (default /usr/bin/chromium)
//   CHARTER_LSP run this server binary instead of the bundled one (charter.server.path)
//   KEEP=1      leave code-server running and the temp folders in place
'use strict';
const cp = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const HERE = path.join(__dirname, '..');
const CACHE = process.env.E2E_CACHE || path.join(HERE, '..', '.e2e-cache');
const CODE_SERVER = path.join(CACHE, 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
const VSIX = path.resolve(process.env.VSIX || path.join(HERE, '..', 'vscode', 'charter-lsp.vsix'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Text as the DOM renders it, non-breaking spaces made plain. */
const plain = (s) => s.replace(/\u00a0/g, ' ');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const healthy = (port) =>
  new Promise((resolve) => {
    http.get(`http://127.0.0.1:${port}/healthz`, (r) => (r.resume(), resolve(r.statusCode === 200))).on('error', () => resolve(false));
  });

/**
 * Starts code-server on folder and opens it in a browser page. trusted false opens it in
 * Restricted Mode (workspace trust on, the folder not trusted, no prompt).
 */
async function openVSCode({ folder, trusted = true, artifacts, settings = {} }) {
  for (const [what, p] of [['code-server', CODE_SERVER], ['the extension', VSIX], ['a browser', process.env.CHROMIUM || '/usr/bin/chromium']]) {
    if (!fs.existsSync(p)) throw new Error(`${what} not found at ${p} (make e2e-deps, make vsix)`);
  }
  fs.mkdirSync(artifacts, { recursive: true });
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'charter-codeserver-'));
  const dirs = {};
  for (const k of ['user-data', 'extensions', 'home', 'xdg-config', 'xdg-data', 'xdg-cache']) {
    dirs[k] = path.join(run, k);
    fs.mkdirSync(dirs[k], { recursive: true });
  }
  fs.mkdirSync(path.join(dirs['user-data'], 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(dirs['user-data'], 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'security.workspace.trust.enabled': !trusted,
      'security.workspace.trust.startupPrompt': 'never',
      'security.workspace.trust.banner': 'never',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'workbench.enableExperiments': false,
      'files.autoSave': 'off',
      'charter.trace.server': 'messages',
      ...(process.env.CHARTER_LSP ? { 'charter.server.path': path.resolve(process.env.CHARTER_LSP) } : {}),
      ...settings,
    }, null, 2),
  );
  const port = await freePort();
  const config = path.join(run, 'config.yaml');
  fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env = { ...process.env, HOME: dirs.home, XDG_CONFIG_HOME: dirs['xdg-config'], XDG_DATA_HOME: dirs['xdg-data'], XDG_CACHE_HOME: dirs['xdg-cache'] };
  const args = ['--config', config, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--user-data-dir', dirs['user-data'], '--extensions-dir', dirs.extensions, ...(trusted ? ['--disable-workspace-trust'] : [])];
  cp.execFileSync(CODE_SERVER, [...args, '--install-extension', VSIX], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const log = fs.openSync(path.join(artifacts, 'code-server.log'), 'w');
  const cs = cp.spawn(CODE_SERVER, [...args, folder], { env, stdio: ['ignore', log, log], detached: true });
  for (let i = 0; i < 240 && !(await healthy(port)); i++) await sleep(250);
  if (!(await healthy(port))) throw new Error(`code-server did not come up on port ${port}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    env: { ...env, HOME: dirs.home },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.monaco-workbench .explorer-folders-view .monaco-list-row', { timeout: 90000 });
  const close = async () => {
    const logs = path.join(dirs['user-data'], 'logs');
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(artifacts, 'vscode-logs'), { recursive: true });
    await browser.close().catch(() => {});
    if (process.env.KEEP) return;
    try {
      process.kill(-cs.pid, 'SIGTERM');
    } catch {}
    fs.rmSync(run, { recursive: true, force: true });
  };
  return { page, close, ui: ui(page) };
}

/** What a user does in the workbench. */
function ui(page) {
  const input = page.locator('.quick-input-widget input');
  return {
    async palette(text, choose = text) {
      await page.keyboard.press('F1');
      await input.waitFor({ timeout: 10000 });
      await input.fill(`>${text}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: choose }).first();
      await row.waitFor({ timeout: 10000 });
      await row.click();
    },
    async quickOpen(name, hasText = name) {
      await page.keyboard.press('Control+P');
      await input.waitFor({ timeout: 10000 });
      await input.fill(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText }).first().click({ timeout: 15000 });
      await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15000 });
      await page.waitForSelector('.editor-instance .monaco-editor .view-lines', { timeout: 15000 });
    },
    /** The code lenses shown in the active editor, as text. */
    async lenses() {
      return (await page.locator('.editor-group-container.active .codelens-decoration a, .editor-group-container.active .codelens-decoration span').allInnerTexts()).map(plain);
    },
    /** Waits for a code lens whose text matches and returns it. */
    async lens(match, timeout = 30000) {
      const deadline = Date.now() + timeout;
      let seen = [];
      while (Date.now() < deadline) {
        seen = await this.lenses();
        if (seen.some((t) => match.test(t))) return page.locator('.editor-group-container.active .codelens-decoration a', { hasText: match }).first();
        await sleep(300);
      }
      throw new Error(`no code lens matching ${match}; shown: ${JSON.stringify(seen)}`);
    },
    /** Waits for a notification containing text, and clicks its button. */
    async answer(text, button, timeout = 20000) {
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
      await toast.waitFor({ timeout });
      const said = plain(await toast.innerText());
      await toast.locator('.monaco-button', { hasText: button }).first().click();
      return said;
    },
    /** The notifications shown, as text. */
    async toasts() {
      return (await page.locator('.notifications-toasts .notification-toast').allInnerTexts().catch(() => [])).map((t) => plain(t).replace(/\s+/g, ' '));
    },
    /** The text of the panel's editor (the Output view). */
    async panelText() {
      return plain((await page.locator('.part.panel .monaco-editor .view-lines').allInnerTexts().catch(() => [])).join('\n'));
    },
    async waitFor(what, cond, timeout = 30000) {
      const deadline = Date.now() + timeout;
      let last;
      while (Date.now() < deadline) {
        last = await cond();
        if (last) return last;
        await sleep(300);
      }
      throw new Error(`timed out waiting for ${what}`);
    },
  };
}

/** TAP-like checks with screenshots: check(name, needs, fn). */
function checker(page, artifacts) {
  const state = { passed: 0, failed: 0, n: 0, done: new Set() };
  const shot = (name) => page.screenshot({ path: path.join(artifacts, `${name}.png`) }).catch(() => {});
  async function check(name, needs, fn) {
    state.n++;
    const slug = `${String(state.n).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`.slice(0, 80);
    const missing = needs.filter((d) => !state.done.has(d));
    if (missing.length > 0) {
      state.failed++;
      console.log(`not ok ${state.n} - ${name}: not run, "${missing[0]}" failed earlier`);
      return;
    }
    try {
      await fn();
      state.passed++;
      state.done.add(name);
      await shot(slug);
      console.log(`ok ${state.n} - ${name}`);
    } catch (e) {
      state.failed++;
      await shot(`${slug}-FAILED`);
      const toasts = await ui(page).toasts();
      console.log(`not ok ${state.n} - ${name}: ${(String(e.message || e) + (toasts.length ? `\nnotifications: ${JSON.stringify(toasts)}` : '')).split('\n').join('\n    ')}`);
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  return { check, state };
}

module.exports = { openVSCode, checker, sleep, plain, freePort, healthy };
