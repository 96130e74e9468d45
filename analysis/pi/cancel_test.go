package pi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// The heavy loops stop when their context is done; the timing of that is a
// benchmark (workspace BenchmarkCancelStops), these check what is left.

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestParseStopsWhenCancelled(t *testing.T) {
	src := gen.Criteria(20, 5)
	if c, err := ParseCriteriaContext(cancelled(), src); c != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled parse = %v, %v", c, err)
	}
	var p CriteriaParser
	first := p.Parse(src)
	edited := append(append([]byte{}, src[:len(src)/2]...), append([]byte("x"), src[len(src)/2:]...)...)
	if c, err := p.ParseContext(cancelled(), edited); c != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled incremental parse = %v, %v", c, err)
	}
	// The parser kept its state: the next parse is still exact.
	if got, want := p.Parse(edited), ParseCriteria(edited); !reflect.DeepEqual(got, want) {
		t.Fatal("after a cancelled parse, the parser's result differs from a fresh parse")
	}
	if got := p.Parse(src); !reflect.DeepEqual(got, first) {
		t.Fatal("parsing the first text again differs")
	}
}

func TestCheckStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	path, err := gen.Project{Milestones: 20, VALs: 10, Runs: 50, Sources: 3}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	d := LoadDir(vfs.OS, filepath.Dir(path))
	opts := Options{Now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)}
	v := viewOf(vfs.OS, d)
	if n := len(Check(context.Background(), v, opts)[path]); n == 0 {
		t.Fatal("the generated register has no diagnostics to stop before")
	}
	if got := Check(cancelled(), v, opts); len(got[path]) != 0 {
		t.Errorf("a cancelled check still reported %d diagnostics of criteria.md", len(got[path]))
	}
}

func TestClockStopsWhenCancelled(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "src", "a", "f.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := NewSourceClock("mtime", vfs.OS, nil)
	if _, ok, err := NewestSource(context.Background(), clock, project); !ok || err != nil {
		t.Fatalf("uncancelled: ok %v, err %v", ok, err)
	}
	if _, ok, err := NewestSource(cancelled(), clock, project); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: ok %v, err %v", ok, err)
	}
	if _, ok, err := NewestSource(cancelled(), NewSourceClock("git", vfs.OS, nil), project); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled git: ok %v, err %v", ok, err)
	}
}

func TestEvidenceLoadStopsWhenCancelled(t *testing.T) {
	path, err := gen.Project{Milestones: 2, VALs: 3, Runs: 100}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := LoadEvidence(cancelled(), vfs.OS, filepath.Dir(path)); ev != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load = %v, %v", ev, err)
	}
	ev, err := LoadEvidence(context.Background(), vfs.OS, filepath.Dir(path))
	if err != nil || len(ev.Runs) != 100 || len(ev.Newest) != 6 {
		t.Fatalf("load = %d runs, %d newest, %v", len(ev.Runs), len(ev.Newest), err)
	}
	if err := ev.reduce(cancelled()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled reduce: %v", err)
	}
}
