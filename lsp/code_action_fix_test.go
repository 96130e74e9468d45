package lsp_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func quickFixTitles(acts []*protocol.CodeAction) []string {
	var out []string
	for _, a := range acts {
		if a.Kind != nil && *a.Kind == protocol.CodeActionKindQuickFix && !strings.HasPrefix(a.Title, "Disable ") {
			out = append(out, a.Title)
		}
	}
	return out
}

// The server offers the fix analysis attached to a diagnostic, found by
// code and range in the current version: a diagnostic the client still
// shows after the text moved on gets no edit, rather than one that lands
// on the wrong line.
func TestQuickFixFollowsTheCurrentVersion(t *testing.T) {
	c, u, text := startPi(t)
	var d *protocol.Diagnostic
	for _, x := range codesOf(latestDiagnostics(c, u))["invalid-verifier"] {
		d = &x
	}
	if d == nil {
		t.Fatal("no invalid-verifier diagnostic")
	}
	if got := quickFixTitles(codeActions(t, c, u, d.Range.Start, []protocol.Diagnostic{*d})); len(got) != 1 || got[0] != "Change the verifier to command" {
		t.Fatalf("quick fixes %q, want the verifier fix", got)
	}
	// Two lines inserted above: the client's diagnostic is now stale.
	c.Replace(u, 2, "<!-- a -->\n<!-- b -->\n"+text)
	c.WaitDiagnostics(u, 2)
	if got := quickFixTitles(codeActions(t, c, u, d.Range.Start, []protocol.Diagnostic{*d})); len(got) != 0 {
		t.Errorf("a stale diagnostic got the quick fixes %q", got)
	}
	fresh := codesOf(latestDiagnostics(c, u))["invalid-verifier"]
	if len(fresh) != 1 || fresh[0].Range.Start.Line != d.Range.Start.Line+2 {
		t.Fatalf("re-published invalid-verifier: %+v", fresh)
	}
	acts := codeActions(t, c, u, fresh[0].Range.Start, fresh)
	for _, a := range acts {
		if a.Title == "Change the verifier to command" {
			if fixed := applyText(t, "<!-- a -->\n<!-- b -->\n"+text, u, a.Edit); !strings.Contains(fixed, "\nVerifier: command\n") || strings.Contains(fixed, "commnad") {
				t.Errorf("fixed text:\n%s", fixed)
			}
			return
		}
	}
	t.Errorf("no verifier fix for the current diagnostic among %q", quickFixTitles(acts))
}

func latestDiagnostics(c *lsptest.Client, u uri.URI) []protocol.Diagnostic {
	ps := c.Published(u)
	if len(ps) == 0 {
		return nil
	}
	return ps[len(ps)-1].Params.Diagnostics
}

// applyText applies a quick fix's edits for u to text (edits of one
// document do not overlap; applied from the end).
func applyText(t *testing.T, text string, u uri.URI, e *protocol.WorkspaceEdit) string {
	t.Helper()
	var edits []protocol.TextEdit
	edits = append(edits, e.Changes[u]...)
	for _, dc := range e.DocumentChanges {
		if te, ok := dc.(*protocol.TextDocumentEdit); ok && te.TextDocument.URI == u {
			for _, x := range te.Edits {
				edits = append(edits, *x.(*protocol.TextEdit))
			}
		}
	}
	if len(edits) == 0 {
		t.Fatalf("the edit changes nothing in %s", u)
	}
	off := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		n := 0
		for i := 0; i < int(p.Line); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	sort.Slice(edits, func(i, j int) bool { return off(edits[i].Range.Start) > off(edits[j].Range.Start) })
	for _, e := range edits {
		text = text[:off(e.Range.Start)] + e.NewText + text[off(e.Range.End):]
	}
	return text
}
