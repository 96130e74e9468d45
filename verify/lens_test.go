package verify

import (
	"path/filepath"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// The lens and the action of a criterion with a command, from the folder as
// read (no server): the title shows the command verbatim, the command
// carries the same text, and only a criterion with a command gets one.
func TestLensAndActionsShowTheCommandVerbatim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".charters", "20260101-000000-ship-it")
	testfixture.WriteFiles(t, dir, map[string]string{"charter.md": fi15})
	d := charterfile.LoadDir(vfs.OS, dir)
	targets := ChartersTargets(d)
	lenses := Lens(targets)
	if len(lenses) != 1 {
		t.Fatalf("lenses %+v, want C1's only (C2 has no command)", lenses)
	}
	l := lenses[0]
	c1 := d.Charter.Criterion("C1")
	if l.Span != c1.HeadingSpan || l.Command.Title != "▶ Run `go test ./parser`" || l.Command.Name != feature.CmdVerify ||
		l.Command.Args["criterionId"] != "C1" || l.Command.Args["command"] != "go test ./parser" {
		t.Errorf("lens %+v", l)
	}
	if got := Actions(targets, c1.BlockSpan.Start+3); len(got) != 1 || got[0].Kind != feature.KindVerify || got[0].Command.Title != l.Command.Title {
		t.Errorf("action in C1: %+v", got)
	}
	if got := Actions(targets, d.Charter.Criterion("C2").HeadingSpan.Start+3); got != nil {
		t.Errorf("action in C2, which has no command: %+v", got)
	}
}
