package lsp_test

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// outline flattens document symbols to "depth name [detail] lines a-b".
func outline(syms []protocol.DocumentSymbol, depth int, out *[]string) {
	for _, s := range syms {
		detail := ""
		if s.Detail != nil {
			detail = " [" + *s.Detail + "]"
		}
		*out = append(*out, fmt.Sprintf("%s%s%s %d-%d", strings.Repeat("  ", depth), s.Name, detail, s.Range.Start.Line, s.Range.End.Line))
		outline(s.Children, depth+1, out)
	}
}

func TestRP1OutlineFoldingHoverLens(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps()})
	text := readFixture(t, "pad-charter.md")
	d := openDoc(t, c, "charter.md", text)
	doc := protocol.TextDocumentIdentifier{URI: d.u}

	res, err := c.Server.DocumentSymbol(reqCtx(t), &protocol.DocumentSymbolParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	outline(res.(protocol.DocumentSymbolSlice), 0, &got)
	want := []string{
		"Project Charter: Plant Care [charter] 0-31",
		"  Problem & Context [problem · COMPLETE] 5-7",
		"  Target Users [users · EMPTY: TBD] 9-11",
		"  Scratch Pad [interview · UPDATE] 13-31",
		"    Q1: Value Proposition [answered] 17-19",
		"    Q2: Scope [skipped] 21-22",
		"    Q3: Success Criteria [pending] 24-26",
		"    Notes [malformed] 28-29",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	folds, err := c.Server.FoldingRanges(reqCtx(t), &protocol.FoldingRangeParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	var fs []string
	for _, f := range folds {
		fs = append(fs, fmt.Sprintf("%d-%d", f.StartLine, f.EndLine))
	}
	if g, w := strings.Join(fs, " "), "0-31 5-7 9-11 13-31 17-19 21-22 24-26 28-29"; g != w {
		t.Errorf("folding = %s, want %s", g, w)
	}

	hover := func(needle string) string {
		t.Helper()
		h, err := c.Server.Hover(reqCtx(t), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: doc, Position: protocol.Position{Line: lineWith(t, text, needle), Character: 4},
		}})
		if err != nil || h == nil {
			t.Fatalf("hover on %q: %v %v", needle, h, err)
		}
		return h.Contents.(*protocol.MarkupContent).Value
	}
	for _, tt := range []struct{ at, want string }{
		{"## Problem & Context", "**COMPLETE**, 2 sentences"},
		{"## Target Users", "real text instead of the `TBD` marker (line 12)"},
		{"### Q1:", "It covers Business Rationale (`value_prop`)"},
		{"### Q1:", "also touch Problem & Context (`problem`)"},
		{"### Q2:", "was skipped**: Not decided yet."},
		{"### Q3:", "awaits an answer"},
		{"### Notes", "is not `### Q{N}: {Topic}`"},
	} {
		if h := hover(tt.at); !strings.Contains(h, tt.want) {
			t.Errorf("hover on %q lacks %q:\n%s", tt.at, tt.want, h)
		}
	}

	if !hasLens(t, c, d.u, "Q3 awaits an answer") {
		t.Error("no pending lens")
	}
	// Answer Q3: the next step is users (TBD in the charter).
	pos := protocol.Position{Line: lineWith(t, text, "measure success?") + 1, Character: uint32(len("**Answer**: "))}
	d.typeAt(pos, "Fewer plants die. Watering is on time.")
	if !hasLens(t, c, d.u, "Next question: Q4 Target Users") {
		t.Error("no next-question lens")
	}
}

// criteria.md outlines milestones (passing count) holding their VALs (latest
// outcome), and folds each.
func TestCriteriaOutline(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	c.WriteFile(".pi/charters/demo/criterion-state.json",
		`{"charterId":"demo","criteria":{"VAL-A-001":{"outcome":"pass","lastTs":"2026-01-02T03:04:05Z","lastSummary":"ok"}}}`)
	text := "# Criteria\n\n## M1 Login\n\n### VAL-A-001 Users sign in\nVerifier: manual\n\n### VAL-A-002 Tokens expire\nVerifier: manual\n\n## VAL-B-001 Ungrouped\nVerifier: manual\n"
	d := openDoc(t, c, ".pi/charters/demo/criteria.md", text)
	res, err := c.Server.DocumentSymbol(reqCtx(t), &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: d.u}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	outline(res.(protocol.DocumentSymbolSlice), 0, &got)
	want := []string{
		"M1 Login [1/2 pass] 2-8",
		"  VAL-A-001 Users sign in [pass · 2026-01-02T03:04:05Z] 4-5",
		"  VAL-A-002 Tokens expire [no evidence] 7-8",
		"VAL-B-001 Ungrouped [no evidence] 10-11",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
