package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

const chartersRel = ".charters/20260801-140000-ship-history-export/"

// An editor that opens a current-format pi-charter charter.md sees the
// .charters/ diagnostics (not rp1's section-missing, which a ## Scope used
// to trigger), follows edits, and re-checks the charter when its
// state.json changes on disk.
func TestChartersCharterInTheEditor(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	c.WriteFile(chartersRel+"state.json", `{"charterId":"20260801-140000-ship-history-export","schemaVersion":"phases","objective":"Export","status":"active"}`)
	text := "# Objective\nLet readers export their history.\n\n## Scope\nExport only.\n\n## Phases\n\n1. Map the fields — done\n2. Build the endpoint – done\n"
	u := c.Open(chartersRel+"charter.md", text)
	c.WaitDiagnostics(u, 1)
	got := codesOf(latestDiagnostics(c, u))
	if len(got["phase-suffix-variant"]) != 1 || got["phase-suffix-variant"][0].Range.Start.Line != 9 {
		t.Fatalf("want phase-suffix-variant on line 10: %v", got)
	}
	for code := range got {
		if strings.HasPrefix(code, "section-") || strings.HasPrefix(code, "status-") {
			t.Errorf("an rp1 diagnostic on a .charters/ charter: %s", code)
		}
	}

	// Typing the em dash clears it.
	c.Replace(u, 2, strings.Replace(text, "– done", "— done", 1))
	c.WaitDiagnostics(u, 2)
	if got := codesOf(latestDiagnostics(c, u)); len(got["phase-suffix-variant"]) != 0 {
		t.Errorf("still reported after the fix: %v", got)
	}

	// state.json now declares the file-interface grammar: the open
	// charter.md is re-checked and says the generations disagree.
	n := len(c.Published(u))
	c.WriteFile(chartersRel+"state.json", `{"charterId":"20260801-140000-ship-history-export","schemaVersion":"file-interface","objective":"Export","status":"active"}`)
	c.FilesChanged(protocol.FileChangeTypeChanged, chartersRel+"state.json")
	c.Sync()
	if len(c.Published(u)) == n {
		t.Fatal("charter.md was not re-checked after its state.json changed")
	}
	if got := codesOf(latestDiagnostics(c, u)); len(got["generation-mismatch"]) != 1 {
		t.Errorf("want generation-mismatch after state.json changed: %v", got)
	}

	// The open state.json gets its own diagnostics.
	su := c.Open(chartersRel+"state.json", `{"charterId":"20260801-140000-ship-history-export","schemaVersion":"phases","objective":"Export","status":"done"}`)
	c.WaitDiagnostics(su, 1)
	if got := codesOf(latestDiagnostics(c, su)); len(got["state-invalid"]) != 1 {
		t.Errorf("state.json: %v", got)
	}
}
