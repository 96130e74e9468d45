// keystroke.js is an editor's view of a keystroke: a Node client built on
// vscode-jsonrpc (the library VS Code's language client uses) types into a
// criteria.md and times each edit until the server's publishDiagnostics for
// that version has been received and fully decoded (JSON.parse of the whole
// message, as the library does before any handler runs). It times the
// decoding separately, so the client's share of the latency is known.
//
//   node keystroke.js <root> <criteria.md> <edits> <server> [args…]
//
// Prints one JSON object: medians and 90th percentiles in ms, the size of a
// publish and its number of diagnostics. The server is started with its
// arguments in <root>; it must publish with versions (any charter-lsp does;
// lspbench's floor server does too). With KEYSTROKE_CAPTURE=<file> the last
// publishDiagnostics message is written there as received, for the floor
// server to send back.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const rpc = require("vscode-jsonrpc/node");

const [root, file, editsArg, ...server] = process.argv.slice(2);
const edits = Number(editsArg || 100);
const text = fs.readFileSync(file, "utf8");
const uri = "file://" + path.resolve(file);
const rootUri = "file://" + path.resolve(root);

// The library's own application/json decoder (lib/node/ril.js), timed: the
// same Buffer → string → JSON.parse, so the figure is what any
// vscode-jsonrpc client spends on the message before its handler runs.
let lastDecode = { ms: 0, bytes: 0 };
let lastPublish = null;
const timedJSON = {
  name: "application/json",
  decode(buffer, options) {
    const t = process.hrtime.bigint();
    try {
      const msg = JSON.parse(buffer instanceof Buffer ? buffer.toString(options.charset) : new TextDecoder(options.charset).decode(buffer));
      lastDecode = { ms: Number(process.hrtime.bigint() - t) / 1e6, bytes: buffer.length };
      if (msg.method === "textDocument/publishDiagnostics") lastPublish = buffer;
      return Promise.resolve(msg);
    } catch (err) {
      return Promise.reject(err);
    }
  },
};

const child = spawn(server[0], server.slice(1), { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
const conn = rpc.createMessageConnection(
  new rpc.StreamMessageReader(child.stdout, { contentTypeDecoder: timedJSON }),
  new rpc.StreamMessageWriter(child.stdin));

// waiters[version] resolves with the decoding figures of its publish.
const waiters = new Map();
conn.onNotification("textDocument/publishDiagnostics", (p) => {
  const w = waiters.get(p.version);
  if (w) {
    waiters.delete(p.version);
    w({ decode: lastDecode, count: p.diagnostics.length });
  }
});
conn.onRequest("workspace/configuration", (p) => p.items.map(() => ({ debounceMs: 0 })));
conn.onRequest(() => null);
conn.onNotification(() => {});
conn.listen();

const published = (version) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no diagnostics for version ${version}`)), 60000);
  waiters.set(version, (r) => { clearTimeout(timer); resolve(r); });
});
const since = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]; };

// The middle VAL's "Verifier: command" line: typing there toggles
// invalid-verifier, so every version's diagnostics differ and are published.
function verifierLine() {
  const lines = text.split("\n");
  const vals = lines.filter((l) => l.startsWith("### VAL-")).length;
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith("### VAL-") || ++seen < vals / 2) continue;
    for (let j = i + 1; j < lines.length && j < i + 8; j++) {
      if (lines[j] === "Verifier: command") return { line: j, character: lines[j].length };
    }
  }
  throw new Error("no Verifier: command line in the middle of " + file);
}

(async () => {
  await conn.sendRequest("initialize", {
    processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "bench" }],
    initializationOptions: { debounceMs: 0 },
    capabilities: { workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { publishDiagnostics: { versionSupport: true } } },
  });
  conn.sendNotification("initialized", {});
  let t = process.hrtime.bigint();
  let got = published(1);
  conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text } });
  const first = await got;
  const open = since(t);

  const at = verifierLine();
  const total = [], decode = [];
  let bytes = 0, count = first.count;
  for (let v = 2; v < edits + 2; v++) {
    const change = v % 2 === 0
      ? { range: { start: at, end: at }, text: "x" }
      : { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: "" };
    got = published(v);
    t = process.hrtime.bigint();
    conn.sendNotification("textDocument/didChange", { textDocument: { uri, version: v }, contentChanges: [change] });
    const r = await got;
    total.push(since(t));
    decode.push(r.decode.ms);
    bytes = r.decode.bytes;
    count = r.count;
  }
  if (process.env.KEYSTROKE_CAPTURE && lastPublish) fs.writeFileSync(process.env.KEYSTROKE_CAPTURE, lastPublish);
  console.log(JSON.stringify({
    openMs: open, editP50Ms: pct(total, 0.5), editP90Ms: pct(total, 0.9),
    decodeP50Ms: pct(decode, 0.5), decodeP90Ms: pct(decode, 0.9),
    publishBytes: bytes, diagnostics: count, edits: total.length,
  }));
  await conn.sendRequest("shutdown");
  conn.sendNotification("exit");
  setTimeout(() => process.exit(0), 200);
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.message || e) })); child.kill(); process.exit(1); });
