package lsp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// Hostile documents get diagnostics (or a clear refusal) and every feature
// answers: no panic, no hang. Each runs through the real checker.
func TestHostileDocuments(t *testing.T) {
	nested := func(n int) string {
		var b strings.Builder
		b.WriteString("## Problem\n")
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- x\n")
		}
		return b.String()
	}
	headings := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(prefix)
			b.WriteString(strings.Repeat("A", i%7+1))
			b.WriteString("\ntext\n")
		}
		return b.String()
	}
	big := "# Charter\n\n## Problem\n" + strings.Repeat("Users lose work. It happens daily.\n", 10<<20/35)
	tests := []struct{ name, text string }{
		{"invalid UTF-8", "\xff\xfe# Charter\n## Problem\n\xc3(\xa0\xa1 \xed\xa0\x80\n## Scratch Pad\n### Q1: \xff\n**Asked**: \xfe\n"},
		{"NUL bytes", "# Char\x00ter\n## Prob\x00lem\n\x00\x00\x00\n## Scratch Pad\n### Q1:\x00x\n**Answer**:\x00\n"},
		{"100k-character line", "# Charter\n## Problem\n" + strings.Repeat("é🚀a", 100_000/3) + "\n"},
		{"10 MB document", big},
		{"deeply nested list", nested(600)},
		{"deeply nested quotes", "## Problem\n" + strings.Repeat("> ", 5000) + "x\n"},
		{"thousands of headings", headings("## ", 3000)},
		{"thousands of VALs", headings("### VAL-X-", 3000)},
	}
	for _, tt := range tests {
		for _, file := range []string{"charter.md", ".pi/charters/c/criteria.md", ".pi/charters/c/charter.md"} {
			t.Run(tt.name+" in "+file, func(t *testing.T) {
				if len(tt.text) > 1<<20 {
					testfixture.Long(t)
				}
				c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
				u := c.Open(file, tt.text)
				c.WaitDiagnostics(u, 1)
				if len(tt.text) > 4<<20 {
					// Each request analyses the text again: one of each kind
					// that parses keeps the test quick under -race.
					hover(t, c, u)
					return
				}
				// Every feature answers on the hostile text, and again
				// after an edit in the middle of it.
				exercise(t, c, u)
				c.Change(u, 2, lsptest.Edit{StartLine: 1, StartChar: 3, EndLine: 1, EndChar: 3, Text: "\xff\x00é"})
				c.Sync() // equal diagnostics are not published again
				exercise(t, c, u)
			})
		}
	}
}

func hover(t *testing.T, c *lsptest.Client, u uri.URI) {
	t.Helper()
	tdp := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 2, Character: 3}}
	// An answer or, past the request budget (under -race, say), a clear
	// refusal: never a hang.
	_, err := c.Server.Hover(context.Background(), &protocol.HoverParams{TextDocumentPositionParams: tdp})
	var rpcErr *jsonrpc2.Error
	if err != nil && !(errors.As(err, &rpcErr) && rpcErr.Code == -32803 && strings.Contains(rpcErr.Message, "took longer")) {
		t.Errorf("hover: %v", err)
	}
}

func exercise(t *testing.T, c *lsptest.Client, u uri.URI) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), lsptest.Timeout)
	defer cancel()
	doc := protocol.TextDocumentIdentifier{URI: u}
	for _, pos := range []protocol.Position{{Line: 1, Character: 4}, {Line: 1 << 30, Character: 1 << 30}} {
		tdp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}
		if _, err := c.Server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Errorf("hover at %v: %v", pos, err)
		}
		if _, err := c.Server.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Errorf("definition at %v: %v", pos, err)
		}
		if _, err := c.Server.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp}); err != nil {
			t.Errorf("completion at %v: %v", pos, err)
		}
		r := protocol.Range{Start: pos, End: pos}
		if _, err := c.Server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: r}); err != nil {
			t.Errorf("code action at %v: %v", pos, err)
		}
	}
	if _, err := c.Server.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: doc}); err != nil {
		t.Errorf("document symbols: %v", err)
	}
	if _, err := c.Server.FoldingRanges(ctx, &protocol.FoldingRangeParams{TextDocument: doc}); err != nil {
		t.Errorf("folding ranges: %v", err)
	}
	if _, err := c.Server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: doc}); err != nil {
		t.Errorf("code lens: %v", err)
	}
	c.Pull(u, "")
}

// A document over the analysis limit is refused with a diagnostic rather
// than analysed.
func TestOversizedDocumentIsRefused(t *testing.T) {
	testfixture.Long(t)
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	start := time.Now()
	u := c.Open("charter.md", "# Charter\n## Problem\n"+strings.Repeat("x", 17<<20))
	p := c.WaitDiagnostics(u, 1)
	ds := p.Params.Diagnostics
	if len(ds) != 1 || len(codesOf(ds)["file-too-large"]) != 1 {
		t.Fatalf("diagnostics = %+v, want one file-too-large", ds)
	}
	t.Logf("17 MB document refused in %v", time.Since(start))
}
