package pi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// lazyHistory writes a charter whose runs have something to say: a schema
// break, an unknown VAL, manual evidence without because, unreadable JSON,
// and a criterion-state entry whose related location is a run's row.
func lazyHistory(t *testing.T) (dir string, runs map[string]string) {
	t.Helper()
	path, err := gen.Project{Milestones: 2, VALs: 3, Runs: 6}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Dir(path)
	runs = map[string]string{
		"schema":  "{\n  \"criterionId\": \"" + gen.ID(0, 0) + "\",\n  \"outcome\": \"ok\",\n  \"summary\": \"x\",\n  \"ts\": \"2027-01-01T00:00:00.000Z\",\n  \"colour\": 1\n}\n",
		"unknown": "[\n  {\"criterionId\": \"VAL-NOPE-001\", \"outcome\": \"pass\", \"summary\": \"x\", \"ts\": \"2027-01-02T00:00:00.000Z\"}\n]\n",
		"manual":  "{\"criterionId\": \"" + gen.ID(0, 1) + "\",\n \"outcome\": \"pass\", \"summary\": \"x\", \"source\": \"manual\",\n \"ts\": \"2027-01-03T00:00:00.000Z\"}\n",
		"broken":  "{\"criterionId\": \"" + gen.ID(0, 2) + "\",\n \"outcome\": \n",
	}
	for name, text := range runs {
		p := filepath.Join(dir, "work", "m1", "evidence", "2027-"+name, "evidence.json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		runs[name] = p
	}
	state := `{"criteria": {"` + gen.ID(0, 1) + `": {"outcome": "fail", "lastTs": "2026-01-01T00:00:00.000Z"}}}`
	if err := os.WriteFile(filepath.Join(dir, "criterion-state.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, runs
}

func checkAll(d *Dir) map[string][]diag.Diagnostic {
	return Check(context.Background(), NewView(vfs.OS, d, noSources{}), Options{Now: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)})
}

// A run keeps no text: its diagnostics, placed by reading the file again,
// sit where the file's own line index puts their spans, and a reload that
// takes every run over gives the same diagnostics.
func TestLazyRunDiagnosticsArePlacedAsEagerly(t *testing.T) {
	dir, runs := lazyHistory(t)
	d := LoadDir(vfs.OS, dir)
	got := checkAll(d)
	for name, p := range runs {
		ds := got[p]
		if len(ds) == 0 {
			t.Errorf("%s: no diagnostics", name)
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ix := source.NewIndex(src)
		for _, dg := range ds {
			if want := ix.Range(dg.Span); dg.Range != want {
				t.Errorf("%s: %s at %v, its span %v is at %v", name, dg.Code, dg.Range, dg.Span, want)
			}
		}
	}
	var related int
	for _, dg := range got[filepath.Join(dir, "criterion-state.json")] {
		for _, r := range dg.Related {
			if filepath.Base(r.File) != "evidence.json" {
				continue
			}
			src, err := os.ReadFile(r.File)
			if err != nil {
				t.Fatal(err)
			}
			if want := source.NewIndex(src).Range(r.Span); r.Range != want {
				t.Errorf("related %s at %v, want %v", r.File, r.Range, want)
			}
			related++
		}
	}
	if related == 0 {
		t.Error("no related location in an evidence run")
	}

	ev, err := ReloadEvidence(context.Background(), vfs.OS, dir, d.Evidence)
	if err != nil {
		t.Fatal(err)
	}
	again := checkAll(LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev}))
	if len(again) != len(got) {
		t.Fatalf("after a reload %d files have diagnostics, before %d", len(again), len(got))
	}
	for p, ds := range got {
		if !sameDiagnostics(ds, again[p]) {
			t.Errorf("%s: after a reload\n%+v\nbefore\n%+v", p, again[p], ds)
		}
	}
}

// A run whose file changed after it was loaded, with no reload since, is
// not placed at all (its spans would point at the wrong text); Read says
// so; and the next reload parses it again.
func TestRunChangedBehindOurBack(t *testing.T) {
	dir, runs := lazyHistory(t)
	d := LoadDir(vfs.OS, dir)
	p := runs["schema"]
	if err := os.WriteFile(p, []byte("\n\n\n"+"{\"criterionId\": \"VAL-NOPE-002\", \"outcome\": \"pass\", \"summary\": \"x\", \"ts\": \"2027-01-05T00:00:00.000Z\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var run *EvidenceRun
	for _, r := range d.Runs {
		if r.Path == p {
			run = r
		}
	}
	if _, err := run.Read(); !errors.Is(err, ErrRunChanged) {
		t.Fatalf("Read of a changed run: %v, want ErrRunChanged", err)
	}
	if d.File(p) != nil {
		t.Error("Dir.File hands out a changed run's new text")
	}
	got := checkAll(d)
	if ds, ok := got[p]; ok {
		t.Errorf("a changed run's diagnostics are shown: %+v", ds)
	}
	if len(got[runs["unknown"]]) == 0 {
		t.Error("the unchanged runs lost their diagnostics")
	}

	ev, err := ReloadEvidence(context.Background(), vfs.OS, dir, d.Evidence)
	if err != nil {
		t.Fatal(err)
	}
	after := checkAll(LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev}))
	fresh := checkAll(LoadDir(vfs.OS, dir))
	if !sameDiagnostics(after[p], fresh[p]) || len(after[p]) == 0 || after[p][0].Code != diag.EvidenceUnknownVAL || after[p][0].Range.Start.Line != 3 {
		t.Errorf("after the reload the changed run says\n%+v\nwant\n%+v", after[p], fresh[p])
	}
}

func sameDiagnostics(a, b []diag.Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Code != b[i].Code || a[i].Range != b[i].Range || a[i].Message != b[i].Message || len(a[i].Related) != len(b[i].Related) {
			return false
		}
		for j := range a[i].Related {
			if a[i].Related[j] != b[i].Related[j] {
				return false
			}
		}
	}
	return true
}
