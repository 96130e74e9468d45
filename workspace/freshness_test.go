package workspace_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// How fresh-required evidence goes stale, through what the CLI and the
// server run: the settings pick the clock (freshness, sourceDirs), the
// snapshot memoizes its reading, the charter's view holds the stale passes
// and the check reports them.

const okRow = `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00.000Z"}`

// freshRegister is a criteria.md whose VAL-A-001 requires fresh evidence.
const freshRegister = "## m1 One\n### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true\n### VAL-A-002 Two\nVerifier: hook\n### VAL-A-003 Three\nVerifier: hook\n"

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// criteriaDiagnostics checks the charter dir's criteria.md in a new session
// of the workspace root with cfg as the user's settings.
func criteriaDiagnostics(t *testing.T, root, dir string, cfg analysis.Config) []diag.Diagnostic {
	t.Helper()
	sess := workspace.NewSession(workspace.Options{})
	snap := sess.Update(workspace.Change{Roots: &[]string{root}, Settings: &workspace.Settings{Config: cfg}})
	ds, err := snap.Diagnostics(context.Background(), filepath.Join(dir, "criteria.md"))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func staleCount(t *testing.T, root, dir string, cfg analysis.Config) int {
	t.Helper()
	n := 0
	for _, d := range criteriaDiagnostics(t, root, dir, cfg) {
		if d.Code == diag.StaleEvidence {
			n++
		}
	}
	return n
}

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
	mustWrite(t, filepath.Join(dir, "criteria.md"), freshRegister)
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

var gitMode = analysis.Config{Freshness: pi.FreshnessGit}

func TestStaleEvidenceByMode(t *testing.T) {
	project, dir, git := gitProject(t)
	mustWrite(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
	// The file's mtime is now, after the evidence: mtime mode says stale,
	// git mode (commit 2025-12-01, before the evidence) says fresh.
	if got := staleCount(t, project, dir, analysis.Config{Freshness: pi.FreshnessMtime}); got != 1 {
		t.Errorf("mtime mode: %d stale, want 1", got)
	}
	if got := staleCount(t, project, dir, gitMode); got != 0 {
		t.Errorf("git mode before the evidence: %d stale, want 0", got)
	}
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n// changed\n")
	git("2026-02-01T00:00:00Z", "commit", "-q", "-am", "new source")
	var stale []diag.Diagnostic
	for _, d := range criteriaDiagnostics(t, project, dir, gitMode) {
		if d.Code == diag.StaleEvidence {
			stale = append(stale, d)
		}
	}
	if len(stale) != 1 || len(stale[0].Related) != 1 || stale[0].Related[0].File != filepath.Join(project, "src", "a.go") {
		t.Fatalf("git mode after a newer commit: %+v", stale)
	}
	if !strings.Contains(stale[0].Message, "31 days") {
		t.Errorf("message %q", stale[0].Message)
	}
	// An unparsable lastTs in criterion-state.json counts as stale
	// (upstream). (An evidence row with such a ts breaks the schema and is
	// not an outcome at all.)
	if err := os.RemoveAll(filepath.Join(dir, "work")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "criterion-state.json"), `{"charterId":"c","criteria":{"VAL-A-001":{"outcome":"pass","lastEvidencePath":"work/_charter/evidence/s/evidence.json","lastTs":"soon","lastSummary":"s"}}}`)
	if got := staleCount(t, project, dir, gitMode); got != 1 {
		t.Errorf("unparsable ts: %d stale, want 1", got)
	}
	// No source folder: nothing is stale.
	if got := staleCount(t, project, dir, analysis.Config{SourceDirs: []string{"lib"}}); got != 0 {
		t.Errorf("no source: %d stale, want 0", got)
	}
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
		return staleCount(t, project, dir, gitMode)
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
	if got := staleCount(t, project, dir, gitMode); got != 0 {
		t.Errorf("evidence committed with the change: %d stale, want 0", got)
	}
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n// changed again\n")
	git("2026-01-02T00:00:00Z", "commit", "-q", "-am", "a later change")
	if got := staleCount(t, project, dir, gitMode); got != 1 {
		t.Errorf("a source commit after the evidence's: %d stale, want 1", got)
	}
}
