// mdls.js measures vscode-markdown-languageserver the way make bench
// measures charter-lsp: open → documentSymbol, then one-character edits →
// pulled diagnostics and documentSymbol. It answers the server's
// markdown/parse requests with markdown-it, as VS Code does. Prints JSON.
//
//   node mdls.js <file.md> <edits>
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const rpc = require("vscode-jsonrpc/node");
const MarkdownIt = require("markdown-it");

const [file, editsArg] = process.argv.slice(2);
const edits = Number(editsArg || 20);
const text = fs.readFileSync(file, "utf8");
const uri = "file://" + path.resolve(file);
const md = new MarkdownIt({ html: true });

const server = spawn(process.execPath, [require.resolve("vscode-markdown-languageserver"), "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
conn.onRequest("markdown/parse", (p) => md.parse(p.text !== undefined ? p.text : text, {}));
conn.onRequest("workspace/configuration", (p) => p.items.map(() => ({})));
conn.onRequest("markdown/findMarkdownFilesInWorkspace", () => [uri]);
conn.onRequest(() => null);
conn.onNotification(() => {});
conn.listen();

const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

(async () => {
  await conn.sendRequest("initialize", { processId: process.pid, rootUri: "file://" + path.dirname(path.resolve(file)), capabilities: {
    textDocument: { diagnostic: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } }, workspace: { configuration: true } } });
  conn.sendNotification("initialized", {});
  let t = process.hrtime.bigint();
  conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text } });
  await conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri } });
  const open = ms(t);
  const lines = text.split("\n");
  const line = Math.floor(lines.length / 2);
  const editMs = [];
  for (let v = 2; v < edits + 2; v++) {
    const change = v % 2 === 0
      ? { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: "x" }
      : { range: { start: { line, character: 0 }, end: { line, character: 1 } }, text: "" };
    t = process.hrtime.bigint();
    conn.sendNotification("textDocument/didChange", { textDocument: { uri, version: v }, contentChanges: [change] });
    await Promise.all([
      conn.sendRequest("textDocument/diagnostic", { textDocument: { uri } }),
      conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri } }),
    ]);
    editMs.push(ms(t));
  }
  console.log(JSON.stringify({ openToSymbolsMs: open, editMedianMs: median(editMs), edits: editMs.length }));
  await conn.sendRequest("shutdown");
  conn.sendNotification("exit");
  setTimeout(() => process.exit(0), 200);
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.message || e) })); process.exit(1); });
