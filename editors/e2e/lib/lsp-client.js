// A small LSP client that behaves like an editor: it keeps open documents, applies the
// server's workspace edits (to open documents, or to disk for files it has not opened),
// answers the server's requests, and records diagnostics so tests can wait for them.
// Built on vscode-languageserver-protocol, the library VS Code's own client uses.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const { fileURLToPath, pathToFileURL } = require('url');
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');

class LspClient {
  // settings answer workspace/configuration and go as initializationOptions, unless
  // opts.initializationOptions says otherwise; opts.env adds to the server's environment.
  constructor(binary, rootDir, settings = {}, opts = {}) {
    this.binary = binary;
    this.rootDir = rootDir;
    this.settings = settings;
    this.initializationOptions = opts.initializationOptions ?? settings;
    this.env = opts.env;
    this.progress = []; // $/progress values, in order
    this.docs = new Map(); // uri -> { text, version, languageId }
    this.diagnostics = new Map(); // uri -> { version, diagnostics }
    this.waiters = new Set();
    this.messages = []; // window/showMessage and logMessage, for failure reports
    this.stderr = '';
    this.exitCode = undefined;
  }

  start() {
    if (!fs.existsSync(this.binary)) {
      throw new Error(`server binary not found: ${this.binary} (build it with: go build -o bin/charter-lsp ./cmd/charter-lsp)`);
    }
    const env = this.env ? { ...process.env, ...this.env } : process.env;
    this.proc = cp.spawn(this.binary, ['serve'], { cwd: this.rootDir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.on('data', (d) => (this.stderr = (this.stderr + d).slice(-20000)));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve((this.exitCode = code))));
    const conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.conn = conn;
    conn.onNotification('textDocument/publishDiagnostics', (p) => {
      this.diagnostics.set(p.uri, { version: p.version, diagnostics: p.diagnostics });
      this.wake();
    });
    conn.onNotification('window/showMessage', (p) => this.messages.push(`showMessage: ${p.message}`));
    conn.onNotification('window/logMessage', (p) => this.messages.push(`log: ${p.message}`));
    conn.onNotification('$/progress', (p) => this.progress.push(p.value));
    conn.onNotification(() => undefined);
    conn.onRequest('workspace/applyEdit', (p) => {
      try {
        this.applyWorkspaceEdit(p.edit);
        this.lastAppliedEdit = p.edit;
        return { applied: true };
      } catch (e) {
        return { applied: false, failureReason: String(e && e.message) };
      }
    });
    conn.onRequest('workspace/configuration', (p) => p.items.map((i) => (!i.section || i.section === 'charter' ? this.settings : null)));
    conn.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(this.rootDir).href, name: path.basename(this.rootDir) }]);
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('client/unregisterCapability', () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('window/showDocument', (p) => {
      this.shownDocument = p;
      return { success: true };
    });
    conn.onRequest('window/showMessageRequest', () => null);
    conn.onRequest('workspace/codeLens/refresh', () => null);
    conn.onRequest('workspace/diagnostic/refresh', () => {
      // Something outside the documents changed: pull every document again.
      for (const d of this.diagnostics.values()) {
        d.stale = true;
      }
      return null;
    });
    conn.onRequest('workspace/semanticTokens/refresh', () => null);
    conn.listen();
  }

  request(method, params, timeoutMs = 10000) {
    const sent = this.conn.sendRequest(method, params).catch((e) => {
      const what = params?.command ? `${method} ${params.command}` : method;
      throw new Error(`${what} failed: ${e.message}${e.code !== undefined ? ` (code ${e.code})` : ''}`);
    });
    return withTimeout(sent, timeoutMs, `${method} got no answer in ${timeoutMs} ms${this.tail()}`);
  }

  notify(method, params) {
    return this.conn.sendNotification(method, params);
  }

  async initialize() {
    const root = pathToFileURL(this.rootDir).href;
    this.initResult = await this.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'charter-e2e-node', version: '1' },
      rootUri: root,
      workspaceFolders: [{ uri: root, name: path.basename(this.rootDir) }],
      initializationOptions: this.initializationOptions,
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: {
          applyEdit: true,
          workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          executeCommand: {},
          symbol: {},
        },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.rewrite', 'source'] } },
            resolveSupport: { properties: ['edit'] },
            dataSupport: true,
          },
          diagnostic: { dynamicRegistration: false },
          codeLens: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
        window: { showDocument: { support: true }, workDoneProgress: true },
      },
    });
    this.notify('initialized', {});
    return this.initResult;
  }

  open(file, languageId = 'markdown') {
    const uri = pathToFileURL(file).href;
    const text = fs.readFileSync(file, 'utf8');
    this.docs.set(uri, { text, version: 1, languageId });
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  /** Applies edits to an open document and sends them to the server as incremental changes. */
  change(uri, edits) {
    const doc = this.docs.get(uri);
    doc.text = applyTextEdits(doc.text, edits);
    doc.version++;
    this.notify('textDocument/didChange', {
      textDocument: { uri, version: doc.version },
      contentChanges: edits.map((e) => ({ range: e.range, text: e.newText })),
    });
    return doc.version;
  }

  text(uri) {
    return this.docs.get(uri)?.text;
  }

  /**
   * Waits until the diagnostics published for uri satisfy pred (and are for the document's
   * current version when the server sends versions). Falls back to pull diagnostics when the
   * server advertises them and publishes nothing.
   */
  async waitForDiagnostics(uri, pred = () => true, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    const current = () => {
      const d = this.diagnostics.get(uri);
      const doc = this.docs.get(uri);
      if (!d || (doc && d.version != null && d.version !== doc.version)) {
        return undefined;
      }
      return pred(d.diagnostics) ? d.diagnostics : undefined;
    };
    while (Date.now() < deadline) {
      const ok = current();
      if (ok) {
        return ok;
      }
      if (this.exitCode !== undefined) {
        throw new Error(`server exited with ${this.exitCode}${this.tail()}`);
      }
      await new Promise((resolve) => {
        const w = () => resolve();
        this.waiters.add(w);
        setTimeout(() => {
          this.waiters.delete(w);
          resolve();
        }, 250);
      });
      // A pull client (we declare textDocument.diagnostic) asks for the diagnostics of each
      // new version itself, as VS Code does; the server then does not push them.
      const have = this.diagnostics.get(uri);
      const stale = !have || have.stale || have.version !== this.docs.get(uri)?.version;
      if (stale && this.initResult?.capabilities?.diagnosticProvider) {
        const report = await this.request('textDocument/diagnostic', { textDocument: { uri } }).catch(() => undefined);
        if (report && report.kind === 'full') {
          this.diagnostics.set(uri, { version: this.docs.get(uri)?.version, diagnostics: report.items, pulled: true });
        }
      }
    }
    const got = this.diagnostics.get(uri);
    throw new Error(
      `no matching diagnostics for ${path.basename(fileURLToPath(uri))} within ${timeoutMs} ms; last received ` +
        (got ? `(version ${got.version}): ${summarize(got.diagnostics)}` : 'nothing') + this.tail(),
    );
  }

  wake() {
    for (const w of this.waiters) {
      w();
    }
    this.waiters.clear();
  }

  /** Runs a code action as an editor would: resolve if needed, apply its edit, run its command. */
  async runCodeAction(action) {
    let a = action;
    if (!a.edit && !a.command && a.data !== undefined && this.initResult?.capabilities?.codeActionProvider?.resolveProvider) {
      a = await this.request('codeAction/resolve', a);
    }
    let result;
    if (a.edit) {
      this.applyWorkspaceEdit(a.edit);
    }
    if (a.command) {
      const cmd = typeof a.command === 'string' ? { command: a.command, arguments: a.arguments } : a.command;
      result = await this.request('workspace/executeCommand', { command: cmd.command, arguments: cmd.arguments ?? [] });
    }
    return result;
  }

  applyWorkspaceEdit(edit) {
    const written = [];
    const ops = edit.documentChanges ?? Object.entries(edit.changes ?? {}).map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits }));
    for (const op of ops) {
      if (op.kind === 'create') {
        const f = fileURLToPath(op.uri);
        if (!(fs.existsSync(f) && op.options?.ignoreIfExists)) {
          fs.mkdirSync(path.dirname(f), { recursive: true });
          if (!fs.existsSync(f) || op.options?.overwrite) {
            fs.writeFileSync(f, '');
          }
          written.push({ uri: op.uri, type: 1 });
        }
      } else if (op.kind === 'rename') {
        fs.renameSync(fileURLToPath(op.oldUri), fileURLToPath(op.newUri));
      } else if (op.kind === 'delete') {
        fs.rmSync(fileURLToPath(op.uri), { recursive: !!op.options?.recursive, force: !!op.options?.ignoreIfNotExists });
      } else {
        const uri = op.textDocument.uri;
        const edits = op.edits.map((e) => ('newText' in e ? e : { range: e.range, newText: e.newText ?? '' }));
        if (this.docs.has(uri)) {
          this.change(uri, sortForApply(edits));
        } else {
          const f = fileURLToPath(uri);
          const before = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
          fs.mkdirSync(path.dirname(f), { recursive: true });
          fs.writeFileSync(f, applyTextEdits(before, edits));
          written.push({ uri, type: before === '' ? 1 : 2 });
        }
      }
    }
    if (written.length > 0) {
      this.notify('workspace/didChangeWatchedFiles', { changes: written });
    }
  }

  async shutdown() {
    await this.request('shutdown', null, 5000);
    this.notify('exit', null);
    return withTimeout(this.exited, 5000, `server did not exit within 5 s after exit${this.tail()}`);
  }

  kill() {
    if (this.proc && this.exitCode === undefined) {
      this.proc.kill('SIGKILL');
    }
    this.conn?.dispose();
  }

  tail() {
    const lines = [...this.messages.slice(-5), ...this.stderr.trim().split('\n').slice(-8)].filter(Boolean);
    return lines.length ? `\n  server said:\n    ${lines.join('\n    ')}` : '';
  }
}

/** Offsets of each line start; positions are UTF-16 code units, like JS strings. */
function offsetAt(text, pos) {
  let line = 0;
  let i = 0;
  while (line < pos.line) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) {
      return text.length;
    }
    i = nl + 1;
    line++;
  }
  let end = text.indexOf('\n', i);
  if (end < 0) {
    end = text.length;
  }
  if (end > i && text[end - 1] === '\r') {
    end--;
  }
  return Math.min(i + pos.character, end);
}

/** Applies non-overlapping edits given against the same original text. */
function applyTextEdits(text, edits) {
  const withOffsets = edits.map((e, i) => ({ s: offsetAt(text, e.range.start), e: offsetAt(text, e.range.end), t: e.newText, i }));
  withOffsets.sort((a, b) => b.s - a.s || b.i - a.i);
  for (const x of withOffsets) {
    text = text.slice(0, x.s) + x.t + text.slice(x.e);
  }
  return text;
}

/**
 * For sending edits as sequential didChange events: the protocol applies content changes one
 * after another, so send them bottom-up, where earlier changes don't shift later ranges.
 */
function sortForApply(edits) {
  return [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
}

function summarize(diags) {
  if (!diags || diags.length === 0) {
    return '[]';
  }
  return diags.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`).join(', ');
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
  ]);
}

/** The text of a hover's contents, whatever form the server chose. */
function hoverText(hover) {
  if (!hover) {
    return '';
  }
  const c = hover.contents;
  const one = (x) => (typeof x === 'string' ? x : x?.value ?? '');
  return Array.isArray(c) ? c.map(one).join('\n') : one(c);
}

module.exports = { LspClient, applyTextEdits, offsetAt, summarize, hoverText };
