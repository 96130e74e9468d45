package workspace_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// The checks of one file as the CLI and the server ask for them: a
// snapshot's Diagnostics.

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// diskSnapshot is a snapshot of the disk with settings, as `check` takes.
func diskSnapshot(settings workspace.Settings) *workspace.Snapshot {
	return workspace.NewSession(workspace.Options{}).Update(workspace.Change{Settings: &settings})
}

func diagnostics(t testing.TB, snap *workspace.Snapshot, path string) []diag.Diagnostic {
	t.Helper()
	ds, err := snap.Diagnostics(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestCheckConfigFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), ".charter-lsp.jsonc")
	writeFile(t, bad, `{"severity": {"stale-evidence": "loud"}}`)
	ds := diagnostics(t, diskSnapshot(workspace.Settings{}), bad)
	if len(ds) != 1 || ds[0].Code != diag.ConfigInvalid || !strings.Contains(ds[0].Message, "loud") {
		t.Fatalf("invalid config: %+v", ds)
	}
	writeFile(t, bad, "{\n  // fine\n  \"severity\": {\"stale-evidence\": \"error\"},\n}\n")
	if ds := diagnostics(t, diskSnapshot(workspace.Settings{}), bad); len(ds) != 0 {
		t.Fatalf("valid config reported: %+v", ds)
	}
}

func TestCheckFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, ".rp1", "context", "charter.md")
	writeFile(t, big, "# Project Charter: X\n\n"+strings.Repeat("filler text\n", analysis.MaxFileSize/12+1))
	if ds := diagnostics(t, diskSnapshot(workspace.Settings{}), big); len(ds) != 1 || ds[0].Code != diag.FileTooLarge {
		t.Fatalf("oversized charter: %v", codes(ds))
	}
	// Near miss: a small file is analysed normally.
	writeFile(t, big, "# Project Charter: X\n")
	for _, d := range diagnostics(t, diskSnapshot(workspace.Settings{}), big) {
		if d.Code == diag.FileTooLarge {
			t.Fatal("a small file reported as too large")
		}
	}
	// A large file that is not a charter is none of our business.
	other := filepath.Join(dir, "notes.md")
	writeFile(t, other, strings.Repeat("x", analysis.MaxFileSize+1))
	if ds := diagnostics(t, diskSnapshot(workspace.Settings{}), other); len(ds) != 0 {
		t.Fatalf("non-charter file reported: %v", codes(ds))
	}
}

// An open document's text is what gets checked, not the disk's.
func TestOpenDocumentWinsOverDisk(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".rp1", "context", "charter.md")
	writeFile(t, p, "# Project Charter: X\n")
	sess := workspace.NewSession(workspace.Options{})
	onDisk := diagnostics(t, sess.Snapshot(), p)
	inEditor := diagnostics(t, sess.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(p, 1, []byte(complete))}}), p)
	if len(onDisk) == 0 || len(inEditor) != 0 {
		t.Fatalf("disk %v, editor %v: the open complete charter should have no diagnostics", codes(onDisk), codes(inEditor))
	}
}

const complete = `# Project Charter: X

**Status**: Draft

## Problem & Context

Teams lose hours every week. The cause is manual reconciliation.

## Target Users

Accountants in mid-size firms. They close the books monthly.

## Business Rationale

It saves two days a month. It also reduces audit findings.

## Scope Guardrails

- We will import bank exports.
- We won't move money.

## Success Criteria

- Reconciliation takes under an hour.
- Auditors accept the trail without rework.
`

// A project holding a current-format charter gets the .charters/
// diagnostics of its files and never rp1's (a charter.md with ## Scope used
// to get four false section-missing); the settings' severities apply.
func TestCheckChartersFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".charters", "20260702-101500-ship")
	writeFile(t, filepath.Join(dir, "charter.md"), "# Objective\nShip it.\n\n## Scope\nCore only.\n\n## Phases\n1. Build - done\n")
	writeFile(t, filepath.Join(dir, "state.json"), `{"charterId":"20260702-101500-ship","schemaVersion":"phases","objective":"Ship it","status":"done"}`)
	writeFile(t, filepath.Join(dir, "events.jsonl"), "{\"type\":\"charter_created\"}\nnot json\n")
	snap := diskSnapshot(workspace.Settings{Config: analysis.Config{Severity: map[string]string{"phase-suffix-variant": "error"}}})
	got := map[string]bool{}
	for _, name := range []string{"charter.md", "state.json", "events.jsonl"} {
		for _, d := range diagnostics(t, snap, filepath.Join(dir, name)) {
			got[name+" "+d.Code.String()] = true
			if d.Code.Rule().Family == "rp1" {
				t.Errorf("rp1 diagnostic on a .charters/ charter: %s %s", d.Code, d.Message)
			}
			if d.Code == diag.PhaseSuffixVariant && (d.Severity != diag.SeverityError || d.Range.Start.Line != 7) {
				t.Errorf("phase-suffix-variant at line 8 with severity error: %+v", d)
			}
		}
	}
	for _, want := range []string{"charter.md phase-suffix-variant", "state.json state-invalid", "events.jsonl events-line-invalid"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
}

// A long run of random edits to criteria.md, snapshot after snapshot (every
// parse, index and check carried over that can be), diagnoses exactly as a
// fresh session of the same text.
func TestCarriedOverMatchesFresh(t *testing.T) {
	path, err := gen.Project{Milestones: 4, VALs: 5, Runs: 6, Sources: 3}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := gen.Criteria(4, 5)
	pieces := []string{"x", "\n", "\r\n", "## m9 New\n", "### VAL-NEW-001 T\n", "Verifier: ", "commnad", "Command: go test\n", "é", "#"}
	rng := rand.New(rand.NewPCG(3, 4))
	now := func() time.Time { return time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC) }
	sess := workspace.NewSession(workspace.Options{Now: now})
	doc := workspace.NewDocument(path, 1, src)
	for step := 0; step < 150; step++ {
		at := rng.IntN(len(src) + 1)
		end := min(len(src), at+rng.IntN(3))
		ins := pieces[rng.IntN(len(pieces))]
		src = append(append(append([]byte{}, src[:at]...), ins...), src[end:]...)
		next, err := doc.Apply(doc.Version+1, []workspace.TextChange{{Whole: true, Text: string(src)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		doc = next
		got := diagnostics(t, sess.Update(workspace.Change{Documents: []*workspace.Document{doc}}), path)
		fresh := workspace.NewSession(workspace.Options{Now: now})
		want := diagnostics(t, fresh.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(path, 1, src)}}), path)
		if len(want) == 0 {
			t.Fatalf("step %d: no diagnostics at all; the generated register should have some", step)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: carried-over check differs:\n got %v\nwant %v", step, codes(got), codes(want))
		}
	}
}

// FuzzCheckFile runs the whole check of an rp1 charter with a project
// configuration file beside it, both from the fuzzer: diagnostics stay
// inside the charter with codes from the catalogue, and an invalid
// configuration is reported as such.
func FuzzCheckFile(f *testing.F) {
	f.Add([]byte("# Charter\n\n## Problem\nTBD\n\n## Scratch Pad\n### Q1: x\n**Asked**: y\n"), []byte(`{"questionBudget":2}`))
	f.Add([]byte("<!-- charter-lsp-disable-file -->\n## Problem\n"), []byte(`{"severity":{"section-empty":"error"}}`))
	f.Add([]byte("\x00\xff## Users\r\n- a\r\n"), []byte(`{`))
	f.Fuzz(func(t *testing.T, charter, config []byte) {
		disk := memFS{
			"w/charter.md":        {Data: charter, ModTime: time.Unix(1, 0)},
			"w/.charter-lsp.json": {Data: config, ModTime: time.Unix(1, 0)},
		}
		snap := workspace.NewSession(workspace.Options{Disk: disk, Now: func() time.Time { return time.Unix(2e9, 0) }}).Snapshot()
		_, cfgErr := snap.Config("/w/charter.md")
		if _, parseErr := analysis.ParseConfig(config); (cfgErr == nil) != (parseErr == nil) {
			t.Fatalf("configuration error %v, but the file parses to %v", cfgErr, parseErr)
		}
		for _, d := range diagnostics(t, snap, "/w/charter.md") {
			if d.File != "/w/charter.md" {
				t.Fatalf("diagnostic for %q", d.File)
			}
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(charter) || d.Code.Rule() == nil {
				t.Fatalf("diagnostic %s at %+v in %d bytes", d.Code, d.Span, len(charter))
			}
		}
	})
}

// memFS is an in-memory vfs.FS keyed by absolute path without the leading
// slash (as fstest.MapFS wants).
type memFS fstest.MapFS

func (m memFS) name(p string) string {
	if p = strings.TrimPrefix(path.Clean(p), "/"); p == "" {
		return "."
	}
	return p
}
func (m memFS) ReadFile(p string) ([]byte, error)       { return fstest.MapFS(m).ReadFile(m.name(p)) }
func (m memFS) Stat(p string) (fs.FileInfo, error)      { return fstest.MapFS(m).Stat(m.name(p)) }
func (m memFS) ReadDir(p string) ([]fs.DirEntry, error) { return fstest.MapFS(m).ReadDir(m.name(p)) }

// BenchmarkCheck checks a generated criteria.md from disk, as `charter-lsp
// check` does (one fresh session per run).
func BenchmarkCheck(b *testing.B) {
	for _, sz := range []struct {
		name             string
		milestones, vals int
	}{{"100VALs", gen.RealisticMilestones, gen.RealisticVALs}, {"5000VALs", gen.LargeMilestones, gen.LargeVALs}} {
		b.Run(sz.name, func(b *testing.B) {
			path, err := gen.Project{Milestones: sz.milestones, VALs: sz.vals, Runs: 20, Sources: 50}.Write(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if ds := diagnostics(b, diskSnapshot(workspace.Settings{}), path); len(ds) == 0 {
					b.Fatal("no diagnostics")
				}
			}
		})
	}
}

// How fresh-required evidence goes stale, through what the CLI and the
// server run: the settings pick the clock (freshness, sourceDirs), the
// snapshot memoizes its reading, the charter's view holds the stale passes
// and the check reports them.

const okRow = `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00.000Z"}`

// freshRegister is a criteria.md whose VAL-A-001 requires fresh evidence.
const freshRegister = "## m1 One\n### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true\n### VAL-A-002 Two\nVerifier: hook\n### VAL-A-003 Three\nVerifier: hook\n"

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
	writeFile(t, filepath.Join(dir, "criteria.md"), freshRegister)
	writeFile(t, filepath.Join(project, "src", "a.go"), "package a\n")
	writeFile(t, filepath.Join(project, ".gitignore"), "*.log\n/src/gen/\n")
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
	writeFile(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
	// The file's mtime is now, after the evidence: mtime mode says stale,
	// git mode (commit 2025-12-01, before the evidence) says fresh.
	if got := staleCount(t, project, dir, analysis.Config{Freshness: pi.FreshnessMtime}); got != 1 {
		t.Errorf("mtime mode: %d stale, want 1", got)
	}
	if got := staleCount(t, project, dir, gitMode); got != 0 {
		t.Errorf("git mode before the evidence: %d stale, want 0", got)
	}
	writeFile(t, filepath.Join(project, "src", "a.go"), "package a\n// changed\n")
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
	writeFile(t, filepath.Join(dir, "criterion-state.json"), `{"charterId":"c","criteria":{"VAL-A-001":{"outcome":"pass","lastEvidencePath":"work/_charter/evidence/s/evidence.json","lastTs":"soon","lastSummary":"s"}}}`)
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
	writeFile(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
	stale := func() int {
		t.Helper()
		return staleCount(t, project, dir, gitMode)
	}
	src := filepath.Join(project, "src", "a.go")
	if got := stale(); got != 0 {
		t.Fatalf("committed before the evidence, file time now: %d stale", got)
	}
	writeFile(t, src, "package a\n// edited\n")
	if got := stale(); got != 1 {
		t.Errorf("edited after the evidence, not committed: %d stale, want 1", got)
	}
	git("2025-12-02T00:00:00Z", "add", "src/a.go")
	if got := stale(); got != 1 {
		t.Errorf("staged after the evidence: %d stale, want 1", got)
	}
	git("2025-12-02T00:00:00Z", "reset", "-q", "src/a.go")
	writeFile(t, src, "package a\n")
	if got := stale(); got != 0 {
		t.Errorf("written back to the committed content: %d stale, want 0", got)
	}
	writeFile(t, filepath.Join(project, "src", "debug.log"), "ignored")
	writeFile(t, filepath.Join(project, "src", "gen", "x.go"), "ignored")
	writeFile(t, filepath.Join(project, "README.md"), "not a source")
	if got := stale(); got != 0 {
		t.Errorf("ignored files and a file outside src: %d stale, want 0", got)
	}
	writeFile(t, filepath.Join(project, "src", "b.go"), "package a\n")
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
	writeFile(t, filepath.Join(project, "src", "a.go"), "package a\n// new behaviour\n")
	writeFile(t, run, okRow) // pass at 2026-01-01
	git("2026-01-01T00:10:00Z", "add", "-A")
	git("2026-01-01T00:10:00Z", "commit", "-q", "-m", "behaviour and its evidence")
	if got := staleCount(t, project, dir, gitMode); got != 0 {
		t.Errorf("evidence committed with the change: %d stale, want 0", got)
	}
	writeFile(t, filepath.Join(project, "src", "a.go"), "package a\n// changed again\n")
	git("2026-01-02T00:00:00Z", "commit", "-q", "-am", "a later change")
	if got := staleCount(t, project, dir, gitMode); got != 1 {
		t.Errorf("a source commit after the evidence's: %d stale, want 1", got)
	}
}

// The charters of the workspace are every kind: .charters/ folders too
// (charter.status without a file, the editors' Testing and Charters views,
// listed only the pi charters).
func TestChartersListsEveryKind(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".pi", "charters", "a", "criteria.md"), "# Criteria\n\n### VAL-A-1 — works\nVerifier: manual\nBecause: x\n")
	writeFile(t, filepath.Join(root, ".charters", "20260702-101500-ship", "charter.md"), "# Objective\nShip it.\n")
	roots := []string{root}
	snap := workspace.NewSession(workspace.Options{}).Update(workspace.Change{Roots: &roots})
	found, err := snap.Charters(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(found.PiCharters) != 1 || len(found.Charters) != 1 || found.Charters[0] != filepath.Join(root, ".charters", "20260702-101500-ship") {
		t.Errorf("pi %v, .charters %v", found.PiCharters, found.Charters)
	}
}

// A reading of the history that gives up — past its deadline, over its
// commit or byte budget, or on an object it cannot read — is not "no
// source": the pass is neither fresh nor stale, and freshness-unknown says
// why and what to do, whether the evidence would have been fresh or stale.
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
				writeFile(t, filepath.Join(dir, "work", "_charter", "evidence", "s", "evidence.json"), okRow) // pass at 2026-01-01
				if later {
					writeFile(t, filepath.Join(project, "src", "a.go"), "package a\n// later\n")
				}
				git("2026-02-01T00:00:00Z", "add", "-A")
				git("2026-02-01T00:00:00Z", "commit", "-q", "-m", "evidence")
				writeFile(t, filepath.Join(project, "README.md"), "# a\n")
				git("2026-02-02T00:00:00Z", "add", "-A")
				git("2026-02-02T00:00:00Z", "commit", "-q", "-m", "readme")
				if c.broken {
					parent := strings.TrimSpace(testfixture.Git(t, project, "", "rev-parse", "HEAD~1"))
					if err := os.Remove(filepath.Join(project, ".git", "objects", parent[:2], parent[2:])); err != nil {
						t.Fatal(err)
					}
				}
				sess := workspace.NewSession(workspace.Options{GitLimits: func() gitlog.Limits { return c.lim }})
				snap := sess.Update(workspace.Change{Roots: &[]string{project}, Settings: &workspace.Settings{Config: gitMode}})
				ds, err := snap.Diagnostics(context.Background(), filepath.Join(dir, "criteria.md"))
				if err != nil {
					t.Fatal(err)
				}
				var msgs []string
				codes := map[string]int{}
				for _, d := range ds {
					codes[d.Code.String()]++
					if d.Code == diag.FreshnessUnknown {
						msgs = append(msgs, d.Message)
						if d.Severity != diag.SeverityInformation {
							t.Errorf("severity %v", d.Severity)
						}
					}
				}
				if codes["stale-evidence"] != 0 || len(msgs) != 1 {
					t.Fatalf("codes %v, want one freshness-unknown and no stale-evidence", codes)
				}
				if !strings.Contains(msgs[0], "VAL-A-001") || !strings.Contains(msgs[0], c.want) || !strings.Contains(msgs[0], `"freshness": "mtime"`) {
					t.Errorf("message %q: want VAL-A-001, %q and the way out", msgs[0], c.want)
				}
			})
		}
	}
}
