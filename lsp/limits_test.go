package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// Every feature refuses a document over the size limit before doing any
// work on it (its diagnostics say file-too-large); the same document
// under the limit gets answers (near miss).
func TestOversizedDocumentFeaturesRefuse(t *testing.T) {
	if testing.Short() {
		t.Skip("large document")
	}
	val := "### VAL-BIG-001 — Sessions expire\n\nVerifier: command\nCommand: go test ./...\n\n"
	small := "# Criteria\n\n## m1\n\n" + val
	big := small + strings.Repeat("filler line for a very large criteria file\n", (17<<20)/43)
	for _, c := range []struct {
		name     string
		text     string
		answered bool
	}{{"17 MB", big, false}, {"small", small, true}} {
		t.Run(c.name, func(t *testing.T) {
			if !c.answered && testfixture.Race {
				// 17 MB through the race detector costs 300 MB; the refusal
				// is one early return, and make test-long (no -race) runs it.
				t.Skip("a 17 MB document under the race detector")
			}
			cl := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
			u := cl.Open(".pi/charters/big/criteria.md", c.text)
			p := cl.WaitDiagnostics(u, 1)
			tooLarge := len(codesOf(p.Params.Diagnostics)["file-too-large"]) == 1
			if tooLarge == c.answered {
				t.Fatalf("diagnostics: %v", codesOf(p.Params.Diagnostics))
			}
			answers := featureAnswers(t, cl, u, protocol.Position{Line: 4, Character: 6})
			for feature, n := range answers {
				if c.answered != (n > 0) {
					t.Errorf("%s: %d answers", feature, n)
				}
			}
		})
	}
}

// featureAnswers asks every position and document feature about u and
// counts what each returns.
func featureAnswers(t *testing.T, c *lsptest.Client, u uri.URI, pos protocol.Position) map[string]int {
	t.Helper()
	ctx := t.Context()
	doc := protocol.TextDocumentIdentifier{URI: u}
	tdp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}
	out := map[string]int{}
	count := func(name string, v any, err error) {
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		raw, _ := protocol.Marshal(v)
		if s := string(raw); s != "null" && s != "[]" && s != "{}" && s != `{"isIncomplete":false,"items":[]}` {
			out[name] = len(s)
		} else {
			out[name] = 0
		}
	}
	h, err := c.Server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp})
	count("hover", h, err)
	syms, err := c.Server.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: doc})
	count("documentSymbol", syms, err)
	folds, err := c.Server.FoldingRanges(ctx, &protocol.FoldingRangeParams{TextDocument: doc})
	count("foldingRange", folds, err)
	lenses, err := c.Server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: doc})
	count("codeLens", lenses, err)
	comp, err := c.Server.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: doc, Position: protocol.Position{Line: 6, Character: 10}}})
	count("completion", comp, err)
	def, err := c.Server.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp})
	_ = def // a VAL heading is its own definition: nothing to count
	if err != nil {
		t.Errorf("definition: %v", err)
	}
	actions, err := c.Server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc,
		Range: protocol.Range{Start: pos, End: pos}})
	count("codeAction", actions, err)
	return out
}
