package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// The editor gives the verdict CI gives (cmd/charter-lsp's
// TestCheckFreshnessOnClones) on the same clones, made with the real git:
// fresh on a full clone, information that it cannot judge on a shallow
// one, stale after a later source commit.
func TestFreshnessOnClonesAsCheckSays(t *testing.T) {
	for _, c := range []struct {
		name  string
		stale bool
		depth int
		want  []string // the freshness diagnostics of criteria.md: code@line:severity
	}{
		{"full clone", false, 0, nil},
		{"shallow clone", false, 1, []string{fmt.Sprintf("freshness-unknown@4:%d", protocol.DiagnosticSeverityInformation)}},
		{"full clone, a source commit after the evidence", true, 0, []string{fmt.Sprintf("stale-evidence@4:%d", protocol.DiagnosticSeverityWarning)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clone := testfixture.Clone(t, testfixture.FreshEvidenceRepo(t, c.stale), c.depth)
			rel := testfixture.FreshEvidenceDir + "/criteria.md"
			src, err := os.ReadFile(filepath.Join(clone, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			client := lsptest.Start(t, lsptest.Config{Root: clone, InitializationOptions: map[string]any{"debounceMs": 0}})
			u := client.Open(rel, string(src))
			var got []string
			for _, d := range client.WaitDiagnostics(u, 1).Params.Diagnostics {
				code := fmt.Sprint(d.Code)
				if code == "stale-evidence" || code == "freshness-unknown" {
					got = append(got, fmt.Sprintf("%s@%d:%d", code, d.Range.Start.Line, d.Severity))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("diagnostics %v, want %v", got, c.want)
			}
		})
	}
}

// A commit changes the verdict without touching a source file: a file
// edited before the evidence and committed after it is dated by the
// commit. The server watches the index, which the commit rewrites, and
// reads the history again.
func TestCommitAfterTheEvidenceMakesItStale(t *testing.T) {
	repo, client, u := openEditedBeforeTheEvidence(t)
	stale := func(version int32) bool {
		t.Helper()
		for _, d := range client.WaitDiagnostics(u, version).Params.Diagnostics {
			if fmt.Sprint(d.Code) == "stale-evidence" {
				return true
			}
		}
		return false
	}
	if stale(1) {
		t.Fatal("an edit older than the evidence, not committed, made it stale")
	}
	testfixture.Git(t, repo, "2026-11-13T09:00:00Z", "commit", "-qam", "indent the export")
	client.FilesChanged(protocol.FileChangeTypeChanged, ".git/index")
	client.Change(u, 2, lsptest.Edit{StartLine: 0, EndLine: 0, Text: ""})
	if !stale(2) {
		t.Error("after the commit (2026-11-13), the evidence of 2026-11-10 is not stale")
	}
}

// openEditedBeforeTheEvidence opens criteria.md of a repository whose
// source was edited on 2026-11-10 at 10:00, before the evidence of 12:00,
// and not committed.
func openEditedBeforeTheEvidence(t *testing.T) (repo string, client *lsptest.Client, u uri.URI) {
	t.Helper()
	repo = testfixture.FreshEvidenceRepo(t, false)
	rel := testfixture.FreshEvidenceDir + "/criteria.md"
	src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	code := filepath.Join(repo, "src", "api", "export.go")
	if err := os.WriteFile(code, []byte("package api\n\n// Export answers JSON, indented.\nfunc Export() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := time.Date(2026, 11, 10, 10, 0, 0, 0, time.UTC)
	os.Chtimes(code, edited, edited)
	client = lsptest.Start(t, lsptest.Config{Root: repo, InitializationOptions: map[string]any{"debounceMs": 0}})
	return repo, client, client.Open(rel, string(src))
}

// The same commit when the stale verdict goes out before the editor's next
// edit arrives: published for version 1 while didChange 2 was on its way,
// as on a busy machine. An editor that reads the version (Helix) drops a
// publish for a version it has left, so version 2 must get the verdict
// too, although it equals the last publish.
func TestVerdictPublishedBeforeAnEditIsPublishedForTheEdit(t *testing.T) {
	repo, client, u := openEditedBeforeTheEvidence(t)
	client.WaitDiagnostics(u, 1)
	testfixture.Git(t, repo, "2026-11-13T09:00:00Z", "commit", "-qam", "indent the export")
	client.FilesChanged(protocol.FileChangeTypeChanged, ".git/index")
	client.Sync() // the verdict is out, for version 1
	client.Change(u, 2, lsptest.Edit{StartLine: 0, EndLine: 0, Text: ""})
	client.Sync()
	var got []string
	for _, p := range client.Published(u) {
		v, _ := p.Params.Version.Get()
		var codes []string
		for _, d := range p.Params.Diagnostics {
			if c := fmt.Sprint(d.Code); c == "stale-evidence" {
				codes = append(codes, c)
			}
		}
		got = append(got, fmt.Sprintf("v%d%v", v, codes))
	}
	if want := []string{"v1[]", "v1[stale-evidence]", "v2[stale-evidence]"}; !slices.Equal(got, want) {
		t.Errorf("publishes %v, want %v", got, want)
	}
}

// A reading of the history that runs out of time (a busy moment; the
// deadline is shrunk here through the server's git limits) is published
// as freshness-unknown, never as fresh, and is not kept for good: the
// server reads the history again after a short back-off, without any
// edit, and publishes the verdict that reading gives (stale here).
func TestTimedOutHistoryIsReadAgainAndRepublished(t *testing.T) {
	clone := testfixture.Clone(t, testfixture.FreshEvidenceRepo(t, true), 0)
	rel := testfixture.FreshEvidenceDir + "/criteria.md"
	src, err := os.ReadFile(filepath.Join(clone, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	var busy atomic.Bool
	busy.Store(true)
	client := lsptest.Start(t, lsptest.Config{Root: clone, InitializationOptions: map[string]any{"debounceMs": 0},
		Options: lsp.Options{GitLimits: func() gitlog.Limits {
			if busy.Load() {
				return gitlog.Limits{Timeout: time.Nanosecond}
			}
			return gitlog.Limits{}
		}}})
	u := client.Open(rel, string(src))
	freshness := func(p lsptest.Published) (got []string) {
		for _, d := range p.Params.Diagnostics {
			if code := fmt.Sprint(d.Code); code == "stale-evidence" || code == "freshness-unknown" {
				got = append(got, fmt.Sprintf("%s:%d", code, d.Severity))
				if code == "freshness-unknown" && !strings.Contains(fmt.Sprint(d.Message), "took longer than 1ns") {
					t.Errorf("freshness-unknown does not say the reading timed out: %q", d.Message)
				}
			}
		}
		return got
	}
	if got, want := freshness(client.WaitDiagnostics(u, 1)), []string{fmt.Sprintf("freshness-unknown:%d", protocol.DiagnosticSeverityInformation)}; !slices.Equal(got, want) {
		t.Fatalf("while the history cannot be read in time: %v, want %v", got, want)
	}
	busy.Store(false)
	want := []string{fmt.Sprintf("stale-evidence:%d", protocol.DiagnosticSeverityWarning)}
	for deadline := time.Now().Add(lsptest.Timeout); ; time.Sleep(20 * time.Millisecond) {
		ps := client.Published(u)
		if got := freshness(ps[len(ps)-1]); slices.Equal(got, want) {
			if v, _ := ps[len(ps)-1].Params.Version.Get(); v != 1 {
				t.Errorf("republished for version %d, want 1", v)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no publish with %v after the back-off; last %v", want, freshness(ps[len(ps)-1]))
		}
	}
}
