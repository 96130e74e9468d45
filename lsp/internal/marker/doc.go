// Package marker runs the language-feature tests of lsp/testdata/markers:
// one txtar archive per scenario, holding the scenario's workspace files
// with markers next to the text they speak of (<!--@diag(...)--> in
// markdown, a markers section for JSON), as gopls's marker tests do
// (golang/tools gopls/internal/test/marker/doc.go). Each archive runs
// against a server over a real JSON-RPC connection (lsp/lsptest), in
// process or as the built binary over stdio.
//
// How to write an archive, and every marker with an example:
// lsp/testdata/markers/README.md.
package marker
