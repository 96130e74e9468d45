package verify

import (
	"path/filepath"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
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

// The target at an offset (what a code action reads) is the one the whole
// list has there, at every offset of a register with a repeated id, a VAL
// without a command and text between them; likewise for a .charters
// charter with a repeated id.
func TestTargetAtAgreesWithTheList(t *testing.T) {
	at := func(tg *Target) []*Target {
		if tg == nil {
			return nil
		}
		return []*Target{tg}
	}
	same := func(t *testing.T, what string, text []byte, all []*Target, one func(int) *Target) {
		t.Helper()
		for off := 0; off <= len(text); off++ {
			want, got := Actions(all, off), Actions(at(one(off)), off)
			if len(want) != len(got) || (len(want) == 1 && want[0].Command.Args["criterionId"] != got[0].Command.Args["criterionId"]) {
				t.Fatalf("%s at %d (%q): %+v from the list, %+v from the target at", what, off, text[max(0, off-20):off], want, got)
			}
		}
	}

	criteria := "# Criteria\n\nIntro.\n\n## m1 One\n\n### VAL-A-001 — Builds\nVerifier: command\nCommand: go build ./...\n\n" +
		"### VAL-A-002 — Reviewed\nVerifier: manual\n\n### VAL-A-001 — Again\nVerifier: command\nCommand: go vet ./...\n\n" +
		"## m2 Two\n\n### VAL-A-003 — Tests\nVerifier: command\nCommand: go test ./...\n"
	dir := filepath.Join(t.TempDir(), ".pi", "charters", "c")
	testfixture.WriteFiles(t, dir, map[string]string{"criteria.md": criteria, "state.json": `{"charterId": "c", "status": "active"}`})
	d := pi.LoadDir(vfs.OS, dir)
	if n := len(PiTargets(d)); n != 2 {
		t.Fatalf("%d pi targets, want 2 (VAL-A-001's first block, VAL-A-003)", n)
	}
	same(t, "pi", []byte(criteria), PiTargets(d), func(off int) *Target { return PiTargetAt(d, off) })

	charter := fi15 + "### C1. Again\nCommand: go vet ./...\n\nBetween.\n\n### C3. Tests\nCommand: go test ./...\n"
	cdir := filepath.Join(t.TempDir(), ".charters", "20260101-000000-ship-it")
	testfixture.WriteFiles(t, cdir, map[string]string{"charter.md": charter})
	cd := charterfile.LoadDir(vfs.OS, cdir)
	if n := len(ChartersTargets(cd)); n != 2 {
		t.Fatalf("%d .charters targets, want 2 (C1's first block, C3)", n)
	}
	same(t, ".charters", []byte(charter), ChartersTargets(cd), func(off int) *Target { return ChartersTargetAt(cd, off) })
}
