package lsp_test

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// An unsafe fix (diag.FixSafety) is offered as a quick fix but never as
// the preferred one, which editors apply without showing a choice: a dash
// glued to `pass` is rewritten for the author, `done` turned into `pass`
// is theirs to pick.
func TestUnsafeFixNotPreferred(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	const dir = ".charters/20260101-000000-ship-it/"
	c.WriteFile(dir+"state.json", `{"charterId": "20260101-000000-ship-it", "schemaVersion": "file-interface", "objective": "Ship it", "status": "active"}`+"\n")
	u := c.Open(dir+"charter.md", "## Objective\n\nShip it.\n\n## Criteria\n\n### C1. Works\nStatus: pass—tested by hand\n\n### C2. Docs\nStatus: done\n")
	pub := c.WaitDiagnostics(u, 1)
	preferred := map[string]bool{}
	for _, pd := range pub.Params.Diagnostics {
		if pd.Code != protocol.String("criterion-status-unknown") {
			continue
		}
		res, err := c.Server.CodeAction(reqCtx(t), &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: pd.Range,
			Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{pd}},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res {
			if ca, ok := a.(*protocol.CodeAction); ok && ca.IsPreferred != nil {
				preferred[ca.Title] = *ca.IsPreferred
			}
		}
	}
	want := map[string]bool{"Change to `pass — tested`": true, "Change to `pass`": false}
	for title, p := range want {
		got, ok := preferred[title]
		if !ok || got != p {
			t.Errorf("%q: offered %v, preferred %v; want preferred %v (all: %v)", title, ok, got, p, preferred)
		}
	}
}
