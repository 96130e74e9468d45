package pi

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// gitProject is a project whose charter c requires fresh evidence for
// VAL-A-001, with a source file committed on 2025-12-01; git runs as of a
// given date.
func gitProject(t *testing.T) (project, dir string, git func(date string, args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	project = t.TempDir()
	dir = filepath.Join(project, ".pi", "charters", "c")
	mustWrite(t, filepath.Join(dir, "criteria.md"), milestone("### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true"))
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n")
	mustWrite(t, filepath.Join(project, ".gitignore"), "*.log\n/src/gen/\n")
	git = func(date string, args ...string) {
		t.Helper()
		testfixture.Git(t, project, date, args...)
	}
	git("2025-12-01T00:00:00Z", "init", "-q")
	git("2025-12-01T00:00:00Z", "add", "-A")
	git("2025-12-01T00:00:00Z", "commit", "-q", "-m", "source")
	return project, dir, git
}

// In git mode a committed file is dated by its commit, whatever its file
// time (a checkout writes them all); a file changed since the last commit
// — edited, staged, new — is dated by its file time, as the editor sees
// it; content back to the committed one, an ignored file and a file the
// sources do not hold change nothing.
func TestGitClockCountsChangesSinceTheLastCommit(t *testing.T) {
	project, dir, git := gitProject(t)
	mustWrite(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
	stale := func() int {
		t.Helper()
		return runCheckDir(t, dir, Options{Freshness: FreshnessGit})["stale-evidence"]
	}
	src := filepath.Join(project, "src", "a.go")
	if got := stale(); got != 0 {
		t.Fatalf("committed before the evidence, file time now: %d stale", got)
	}
	mustWrite(t, src, "package a\n// edited\n")
	if got := stale(); got != 1 {
		t.Errorf("edited after the evidence, not committed: %d stale, want 1", got)
	}
	git("2025-12-02T00:00:00Z", "add", "src/a.go")
	if got := stale(); got != 1 {
		t.Errorf("staged after the evidence: %d stale, want 1", got)
	}
	git("2025-12-02T00:00:00Z", "reset", "-q", "src/a.go")
	mustWrite(t, src, "package a\n")
	if got := stale(); got != 0 {
		t.Errorf("written back to the committed content: %d stale, want 0", got)
	}
	mustWrite(t, filepath.Join(project, "src", "debug.log"), "ignored")
	mustWrite(t, filepath.Join(project, "src", "gen", "x.go"), "ignored")
	mustWrite(t, filepath.Join(project, "README.md"), "not a source")
	if got := stale(); got != 0 {
		t.Errorf("ignored files and a file outside src: %d stale, want 0", got)
	}
	mustWrite(t, filepath.Join(project, "src", "b.go"), "package a\n")
	if got := stale(); got != 1 {
		t.Errorf("a new source file: %d stale, want 1", got)
	}
	// An old file time does not hide an edit newer than the evidence, nor
	// does a new one make a committed file newer.
	old := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(project, "src", "b.go"), old, old)
	if got := stale(); got != 0 {
		t.Errorf("a new file dated before the evidence: %d stale, want 0", got)
	}
}

// Evidence committed together with the source change it was recorded for
// is fresh, though the commit is later than the evidence (record, then
// commit: the usual order); evidence committed before a later change of
// the sources is stale.
func TestGitClockEvidenceCommittedWithTheChange(t *testing.T) {
	project, dir, git := gitProject(t)
	run := filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json")
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n// new behaviour\n")
	mustWrite(t, run, okRow) // pass at 2026-01-01
	git("2026-01-01T00:10:00Z", "add", "-A")
	git("2026-01-01T00:10:00Z", "commit", "-q", "-m", "behaviour and its evidence")
	if got := runCheckDir(t, dir, Options{Freshness: FreshnessGit})["stale-evidence"]; got != 0 {
		t.Errorf("evidence committed with the change: %d stale, want 0", got)
	}
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n// changed again\n")
	git("2026-01-02T00:00:00Z", "commit", "-q", "-am", "a later change")
	if got := runCheckDir(t, dir, Options{Freshness: FreshnessGit})["stale-evidence"]; got != 1 {
		t.Errorf("a source commit after the evidence's: %d stale, want 1", got)
	}
}
