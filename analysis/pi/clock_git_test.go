package pi

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
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

// A reading of the history that gives up — past its deadline, over its
// commit or byte budget, or on an object it cannot read — is not "no
// source": the pass is neither fresh nor stale, and freshness-unknown says
// why and what to do, whether the evidence would have been fresh or stale.
// Outside a repository the file times still decide (upstream's rule).
func TestGitClockThatGivesUpJudgesNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		lim  gitlog.Limits
		// broken removes the object of the commit before HEAD.
		broken bool
		want   string // in the freshness-unknown message
	}{
		{"deadline", gitlog.Limits{Timeout: time.Nanosecond}, false, "took longer than 1ns"},
		{"commits", gitlog.Limits{Commits: 1}, false, "larger than charter-lsp reads"},
		{"bytes", gitlog.Limits{Bytes: 1}, false, "larger than charter-lsp reads"},
		{"missing object", gitlog.Limits{}, true, "could not be read"},
	} {
		for _, later := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, source changed after the evidence %v", c.name, later), func(t *testing.T) {
				project, dir, git := gitProject(t)
				mustWrite(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
				if later {
					mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n// later\n")
				}
				git("2026-02-01T00:00:00Z", "add", "-A")
				git("2026-02-01T00:00:00Z", "commit", "-q", "-m", "evidence")
				mustWrite(t, filepath.Join(project, "README.md"), "# a\n")
				git("2026-02-02T00:00:00Z", "add", "-A")
				git("2026-02-02T00:00:00Z", "commit", "-q", "-m", "readme")
				if c.broken {
					parent := strings.TrimSpace(testfixture.Git(t, project, "", "rev-parse", "HEAD~1"))
					if err := os.Remove(filepath.Join(project, ".git", "objects", parent[:2], parent[2:])); err != nil {
						t.Fatal(err)
					}
				}
				clock := GitClock{FS: vfs.OS, Dirs: []string{"src"}, Limits: c.lim, Fallback: MtimeClock{FS: vfs.OS, Dirs: []string{"src"}}}
				ch, ok := clock.Newest(project)
				if !ok || ch.Unread == nil || !ch.Time.IsZero() {
					t.Fatalf("Newest: %+v, %v; want an answer that says the history was not read", ch, ok)
				}
				var msgs []string
				codes := map[string]int{}
				for _, ds := range Check(context.Background(), LoadDir(vfs.OS, dir), Options{Clock: clock}) {
					for _, d := range ds {
						codes[d.Code.String()]++
						if d.Code == diag.FreshnessUnknown {
							msgs = append(msgs, d.Message)
							if d.Severity != diag.SeverityInformation {
								t.Errorf("severity %v", d.Severity)
							}
						}
					}
				}
				if codes["stale-evidence"] != 0 || len(msgs) != 1 {
					t.Fatalf("codes %v, want one freshness-unknown and no stale-evidence", codes)
				}
				t.Log(msgs[0])
				if !strings.Contains(msgs[0], "VAL-A-001") || !strings.Contains(msgs[0], c.want) || !strings.Contains(msgs[0], `"freshness": "mtime"`) {
					t.Errorf("message %q: want VAL-A-001, %q and the way out", msgs[0], c.want)
				}
			})
		}
	}
}

// Outside a repository the git clock falls back to the file times, and a
// clock that gives up never stands in for that: no repository is not an
// unreadable one.
func TestGitClockOutsideARepositoryIsNotUnread(t *testing.T) {
	project := t.TempDir()
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n")
	ch, ok := GitClock{FS: vfs.OS, Dirs: []string{"src"}, Limits: gitlog.Limits{Timeout: time.Nanosecond},
		Fallback: MtimeClock{FS: vfs.OS, Dirs: []string{"src"}}}.Newest(project)
	if !ok || ch.Unread != nil || ch.Time.IsZero() {
		t.Errorf("Newest outside a repository: %+v, %v; want the file time", ch, ok)
	}
}
