package workspace_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// countingFS counts reads per path.
type countingFS struct {
	vfs.FS
	mu    sync.Mutex
	reads map[string]int
	lists int
}

func newCounting() *countingFS { return &countingFS{FS: vfs.OS, reads: map[string]int{}} }

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.FS.ReadFile(name)
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.lists++
	c.mu.Unlock()
	return c.FS.ReadDir(name)
}

func (c *countingFS) evidenceReads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.reads {
		if filepath.Base(p) == "evidence.json" {
			n += k
		}
	}
	return n
}

func (c *countingFS) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads, c.lists = map[string]int{}, 0
}

// project copies the pi-project fixture into a temporary folder.
func project(t *testing.T) (root, charterDir string) {
	t.Helper()
	return testfixture.PiProject(t)
}

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code.String())
	}
	return out
}

// openCounted opens the file at path as a document in a session of the
// workspace root whose disk counts its reads.
func openCounted(t *testing.T, root, path string) (*countingFS, *workspace.Session, *workspace.Snapshot, *workspace.Document, []byte) {
	t.Helper()
	disk := newCounting()
	sess := workspace.NewSession(workspace.Options{Disk: disk})
	sess.Update(workspace.Change{Roots: &[]string{root}})
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := workspace.NewDocument(path, 1, text)
	return disk, sess, sess.Update(workspace.Change{Documents: []*workspace.Document{doc}}), doc, text
}

// A keystroke in criteria.md re-reads no evidence; a new run re-reads it
// once; features asking for the view in between read nothing at all.
func TestEvidenceIsReadOncePerChange(t *testing.T) {
	root, dir := project(t)
	criteria := filepath.Join(dir, "criteria.md")
	disk, sess, snap, doc, text := openCounted(t, root, criteria)
	ctx := context.Background()
	if _, err := snap.Diagnostics(ctx, criteria); err != nil {
		t.Fatal(err)
	}
	first := disk.evidenceReads()
	if first == 0 {
		t.Fatal("the first check read no evidence")
	}
	disk.reset()
	for v := int32(2); v < 12; v++ {
		next, err := doc.Apply(v, []workspace.TextChange{{Whole: true, Text: string(text) + strings.Repeat("\n", int(v))}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		doc = next
		snap = sess.Update(workspace.Change{Documents: []*workspace.Document{doc}})
		if _, err := snap.Diagnostics(ctx, criteria); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ { // hover, lens, symbols
			if _, err := snap.PiView(ctx, dir); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := disk.evidenceReads(); n != 0 {
		t.Fatalf("10 keystrokes and 30 feature requests read evidence.json %d times; want 0", n)
	}

	// An agent records a new run.
	run := filepath.Join(dir, "work", "_charter", "evidence", "2026-11-20T10-00-00-000Z")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	row := `{"criterionId":"VAL-SESS-002","outcome":"pass","summary":"ok","ts":"2026-11-20T10:00:00.000Z"}`
	if err := os.WriteFile(filepath.Join(run, "evidence.json"), []byte(row), 0o644); err != nil {
		t.Fatal(err)
	}
	snap = sess.Update(workspace.Change{Disk: []string{run, filepath.Join(run, "evidence.json")}})
	v, err := snap.PiView(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Latest["VAL-SESS-002"].TS; got != "2026-11-20T10:00:00.000Z" {
		t.Fatalf("the new run is not seen: latest VAL-SESS-002 at %q", got)
	}
	if n := disk.evidenceReads(); n != first+1 {
		// every run is read once again? No: only the new file is read;
		// the others come from the disk cache.
		t.Logf("evidence reads after the new run: %d (first load %d)", n, first)
	}
	if n := disk.evidenceReads(); n != 1 {
		t.Fatalf("a new run re-read %d evidence files; want 1 (the new one)", n)
	}
}

// A snapshot is immutable: an older snapshot keeps answering for its own
// version after newer ones exist.
func TestOldSnapshotKeepsItsVersion(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".rp1", "context", "charter.md")
	sess := workspace.NewSession(workspace.Options{})
	sess.Update(workspace.Change{Roots: &[]string{root}})
	doc := workspace.NewDocument(path, 1, []byte("# Project Charter: X\n\n## Problem & Context\n\nTBD\n"))
	old := sess.Update(workspace.Change{Documents: []*workspace.Document{doc}})
	doc2, _ := doc.Apply(2, []workspace.TextChange{{Whole: true, Text: "# Project Charter: X\n"}}, nil)
	sess.Update(workspace.Change{Documents: []*workspace.Document{doc2}})
	if got := string(old.File(path).Text); !strings.Contains(got, "TBD") {
		t.Fatalf("old snapshot sees %q", got)
	}
	ds, err := old.Diagnostics(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(codes(ds), " "), "section-empty") { // a section holding only TBD is unfilled
		t.Fatalf("old snapshot's diagnostics: %v", codes(ds))
	}
}

// Settings win over the project file; in Restricted Mode the project file
// cannot choose where freshness is read from.
func TestConfigLayers(t *testing.T) {
	root := t.TempDir()
	cfgFile := filepath.Join(root, ".charter-lsp.jsonc")
	if err := os.WriteFile(cfgFile, []byte(`{"freshness": "mtime", "sourceDirs": ["lib"], "questionBudget": 7, "severity": {"val-title-task": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "charter.md")
	sess := workspace.NewSession(workspace.Options{})
	snap := sess.Update(workspace.Change{Roots: &[]string{root}, Settings: &workspace.Settings{Config: analysis.Config{QuestionBudget: 9}}})
	cfg, err := snap.Config(file)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.FreshnessMode() != "mtime" || cfg.Budget() != 9 || cfg.Sources()[0] != "lib" || cfg.Severity["val-title-task"] != "off" {
		t.Fatalf("trusted: %+v", cfg)
	}
	snap = sess.Update(workspace.Change{Settings: &workspace.Settings{Restricted: true}})
	cfg, _ = snap.Config(file)
	if cfg.FreshnessMode() != "git" || cfg.Sources()[0] != "src" || cfg.Budget() != 7 || cfg.Severity["val-title-task"] != "off" {
		t.Fatalf("restricted: %+v", cfg)
	}
}

func TestCancelledViewIsNotKept(t *testing.T) {
	root, dir := project(t)
	slow := &slowFS{FS: vfs.OS, delay: 50 * time.Millisecond}
	sess := workspace.NewSession(workspace.Options{Disk: slow})
	snap := sess.Update(workspace.Change{Roots: &[]string{root}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := snap.PiView(ctx, dir); err == nil {
		t.Fatal("a cancelled request got a view")
	}
	v, err := snap.PiView(context.Background(), dir)
	if err != nil || v == nil || len(v.Dir.Runs) == 0 {
		t.Fatalf("after a cancelled request, a new one gets %v, %v", v, err)
	}
}

type slowFS struct {
	vfs.FS
	delay time.Duration
}

func (s *slowFS) ReadFile(name string) ([]byte, error) {
	time.Sleep(s.delay)
	return s.FS.ReadFile(name)
}

// Every file of the bundled examples (rp1, pi v3, .charters/ generations)
// gets the same diagnostics when its charters are open in the editor,
// unchanged, as from the disk: the overlay changes what is read, never how.
func TestExamplesOpenOrOnDisk(t *testing.T) {
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := analysis.Discover(context.Background(), vfs.OS, root)
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{}, ws.RP1Charters...)
	for _, dir := range ws.PiCharters {
		files = append(files, analysis.PiCharterFiles(vfs.OS, dir)...)
	}
	for _, dir := range ws.Charters {
		files = append(files, charterfile.Files(vfs.OS, dir)...)
	}
	if len(ws.RP1Charters) == 0 || len(ws.PiCharters) == 0 || len(ws.Charters) == 0 {
		t.Fatalf("examples lack a generation: %+v", ws)
	}
	disk := workspace.NewSession(workspace.Options{}).Update(workspace.Change{Roots: &[]string{root}})
	var docs []*workspace.Document
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, workspace.NewDocument(f, 1, text))
	}
	open := workspace.NewSession(workspace.Options{}).Update(workspace.Change{Roots: &[]string{root}, Documents: docs})
	total := 0
	for _, f := range files {
		want, err := disk.Diagnostics(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := open.Diagnostics(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		total += len(want)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n open %v\n disk %v", f, codes(got), codes(want))
		}
	}
	if total == 0 {
		t.Fatal("the examples have no diagnostics at all")
	}
}

// A run recorded in work/ reloads the charter's evidence, parsing only the
// new run: the others are taken over from the evidence before.
func TestNewRunReloadsOnlyItself(t *testing.T) {
	root := t.TempDir()
	path, err := gen.Project{Milestones: 2, VALs: 3, Runs: 10}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	sess := workspace.NewSession(workspace.Options{})
	snap := sess.Update(workspace.Change{Roots: &[]string{root}})
	before, err := snap.PiView(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "work", "m1", "evidence", "2026-12-01T00-00-00-000Z", "evidence.json")
	if err := os.MkdirAll(filepath.Dir(run), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, gen.Evidence("bench", "m1", gen.ID(0, 2), "fail", "2026-12-01T00:00:00.000Z"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap = sess.Update(workspace.Change{Disk: []string{run}})
	after, err := snap.PiView(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Dir.Runs) != 11 || after.Latest[gen.ID(0, 2)].Outcome != "fail" {
		t.Fatalf("after the new run: %d runs, %s is %q", len(after.Dir.Runs), gen.ID(0, 2), after.Latest[gen.ID(0, 2)].Outcome)
	}
	// A run taken over shares its rows (the run itself is copied to read
	// through the new snapshot).
	kept := map[*pi.EvidenceRow]bool{}
	for _, r := range before.Dir.Runs {
		kept[&r.Rows[0]] = true
	}
	n := 0
	for _, r := range after.Dir.Runs {
		if kept[&r.Rows[0]] {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d of the 10 unchanged runs were taken over, want all", n)
	}
}

// The server keeps no evidence run's text. A run rewritten behind its back
// (no change event yet) has no diagnostics rather than ones at stale places;
// once the change is reported, the run is parsed again and its diagnostics
// sit where its new text puts them.
func TestRunChangedBehindTheServersBack(t *testing.T) {
	root := t.TempDir()
	path, err := gen.Project{Milestones: 2, VALs: 3, Runs: 4}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	run := filepath.Join(dir, "work", "m1", "evidence", "2027-01-01T00-00-00-000Z", "evidence.json")
	if err := os.MkdirAll(filepath.Dir(run), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(run, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	row := `{"criterionId": "VAL-NOPE-001", "outcome": "pass", "summary": "x", "ts": "2027-01-01T00:00:00.000Z"}` + "\n"
	write(row)
	ctx := context.Background()
	sess := workspace.NewSession(workspace.Options{})
	snap := sess.Update(workspace.Change{Roots: &[]string{root}})
	v, err := snap.PiView(ctx, dir) // the evidence is loaded
	if err != nil || len(v.Dir.Runs) != 5 {
		t.Fatalf("load: %v", err)
	}

	write("\n\n" + row) // the same row two lines down
	if ds, err := snap.Diagnostics(ctx, run); err != nil || len(ds) != 0 {
		t.Fatalf("changed behind the server's back: %+v, %v; want none", ds, err)
	}

	snap = sess.Update(workspace.Change{Disk: []string{run}})
	ds, err := snap.Diagnostics(ctx, run)
	if err != nil || len(ds) != 1 || ds[0].Range.Start.Line != 2 {
		t.Fatalf("after the change event: %+v, %v; want the unknown VAL on line 3", ds, err)
	}
}
