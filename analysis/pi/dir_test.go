package pi

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

func TestLoadDirFixture(t *testing.T) {
	project := testfixture.Copy(t, "pi-project")
	d := LoadDir(vfs.OS, filepath.Join(project, ".pi", "charters", "auth-rework"))
	if len(d.Errors) != 0 {
		t.Fatalf("errors: %v", d.Errors)
	}
	if d.ID != "auth-rework" || d.Project != project {
		t.Errorf("id %q project %q", d.ID, d.Project)
	}
	if d.Charter == nil || d.Report == nil || d.State == nil || d.CriterionState == nil || d.Legacy {
		t.Fatalf("missing parts: %+v", d)
	}
	var ids []string
	for _, c := range d.Criteria.Criteria {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, " "); got != "VAL-SESS-001 VAL-SESS-002 VAL-SESS-003 VAL-SESS-004 VAL-ROLL-001 VAL-ROLL-003" {
		t.Errorf("criteria %s", got)
	}
	if len(d.Criteria.Dropped) != 1 || d.Criteria.Dropped[0].Reason != DropInvalidID {
		t.Errorf("dropped %+v", d.Criteria.Dropped)
	}
	var runs []string
	for _, r := range d.Runs {
		runs = append(runs, r.RelPath+":"+itoa(len(r.Rows)))
	}
	want := "work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json:1 " +
		"work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json:2 " +
		"work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/evidence.json:1"
	if got := strings.Join(runs, " "); got != want {
		t.Errorf("runs %s", got)
	}
	if d.State.Status != "active" || d.CriterionState.Entry("VAL-SESS-001").Outcome != "pass" {
		t.Errorf("state %+v", d.State)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestLoadDirLegacyAndSymlinks(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(project, ".pi", "charters", "c1")
	outside := filepath.Join(project, "secret.json")
	mustWrite(t, outside, `{"criterionId":"VAL-S","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00Z"}`)
	mustWrite(t, filepath.Join(dir, "charter.md"), "# Charter: c\n\n## Criteria\n\n### VAL-L-001 Legacy\nVerifier: manual\nBecause: x\n")
	mustWrite(t, filepath.Join(dir, "criteria.md"), "## m0-example Example\n### VAL-EXAMPLE Example\nVerifier: command\n")
	mustWrite(t, filepath.Join(dir, "work", "_charter", "evidence", "s1", "evidence.json"), `[]`)
	if err := os.MkdirAll(filepath.Join(dir, "work", "_charter", "evidence", "s2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "work", "_charter", "evidence", "s2", "evidence.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	d := LoadDir(vfs.OS, dir)
	if !d.Legacy || d.CriteriaPath != filepath.Join(dir, "charter.md") || d.Criteria.Criteria[0].ID != "VAL-L-001" {
		t.Errorf("legacy criteria not chosen: legacy=%v path=%s", d.Legacy, d.CriteriaPath)
	}
	if len(d.Runs) != 1 || d.Runs[0].Stamp != "s1" {
		t.Errorf("runs %+v", d.Runs)
	}
	if len(d.Errors) != 1 || !strings.Contains(d.Errors[0].Error(), "symlink") {
		t.Errorf("errors %v", d.Errors)
	}
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// LoadDirFixture loads a fresh copy of the pi-project fixture.
func LoadDirFixture(t *testing.T) *Dir {
	t.Helper()
	project := testfixture.Copy(t, "pi-project")
	return LoadDir(vfs.OS, filepath.Join(project, ".pi", "charters", "auth-rework"))
}

// A charter directory's project is the folder holding its .pi; nothing
// else has one.
func TestProjectOf(t *testing.T) {
	for dir, want := range map[string]string{
		"/p/.pi/charters/auth": "/p",
		"/.pi/charters/auth":   "/",
		"/p/.pi/charters":      "",
		"/p/charters/auth":     "",
		"/p/.charters/auth":    "",
	} {
		if got := filepath.ToSlash(ProjectOf(filepath.FromSlash(dir))); got != want {
			t.Errorf("ProjectOf(%q) = %q, want %q", dir, got, want)
		}
	}
	if !IsChartersFolder("/p/.pi/charters") || IsChartersFolder("/p/.pi") || IsChartersFolder("/p/charters") {
		t.Error("IsChartersFolder: only a .pi's charters folder is one")
	}
}
