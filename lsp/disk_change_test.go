package lsp_test

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// An external change to a file that is open (an agent writing criteria.md
// while the user edits it) is noticed: the overlay keeps the editor's text
// for that document, and the other open files of its charter are checked
// again against it.
func TestExternalChangeToAnOpenFile(t *testing.T) {
	chk := newTodoChecker()
	c := lsptest.Start(t, lsptest.Config{Options: chk.options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	const editorText = "# Criteria\nTODO in the editor\n"
	criteria := c.Open(".pi/charters/auth/criteria.md", editorText)
	c.Open(".pi/charters/auth/charter.md", "# Charter\n")
	c.Sync()

	n := chk.callCount()
	c.WriteFile(".pi/charters/auth/criteria.md", "# Criteria\nwritten by an agent\n")
	c.FilesChanged(protocol.FileChangeTypeChanged, ".pi/charters/auth/criteria.md")
	c.Sync()
	if got := chk.callCount() - n; got < 1 {
		t.Errorf("a disk change to open criteria.md ran %d checks, want charter.md re-checked", got)
	}
	if got := chk.text(c.Path(".pi/charters/auth/criteria.md")); got != editorText {
		t.Errorf("analysis read criteria.md as %q, want the editor's text", got)
	}
	if got := chk.text(c.Path(".pi/charters/auth/charter.md")); got != "# Charter\n" {
		t.Errorf("charter.md read as %q", got)
	}
	// The open document's own diagnostics still come from the editor's text.
	rep := c.Pull(criteria, "")
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(full.Items) != 1 {
		t.Errorf("pull after the disk change = %+v, want the editor text's one TODO", rep)
	}
}
