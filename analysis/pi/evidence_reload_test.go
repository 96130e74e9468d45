package pi

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// A reload keeps the runs whose file did not change (their rows, not
// parsed again) and reads the others, and gives what a fresh load gives.
func TestReloadEvidenceReusesUnchangedRuns(t *testing.T) {
	path, err := gen.Project{Milestones: 2, VALs: 3, Runs: 12}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	ctx := context.Background()
	prev, err := LoadEvidence(ctx, vfs.OS, dir)
	if err != nil || len(prev.Runs) != 12 {
		t.Fatalf("load: %v runs, %v", len(prev.Runs), err)
	}
	changed := prev.Runs[3].Path
	if err := os.WriteFile(changed, gen.Evidence("bench", prev.Runs[3].Segment, gen.ID(0, 1), "fail", "2026-12-01T00:00:00.000Z"), 0o644); err != nil {
		t.Fatal(err)
	}
	added := filepath.Join(dir, "work", "m2", "evidence", "2026-12-02T00-00-00-000Z", "evidence.json")
	if err := os.MkdirAll(filepath.Dir(added), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(added, gen.Evidence("bench", "m2", gen.ID(1, 0), "pass", "2026-12-02T00:00:00.000Z"), 0o644); err != nil {
		t.Fatal(err)
	}
	next, err := ReloadEvidence(ctx, vfs.OS, dir, prev)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := LoadEvidence(ctx, vfs.OS, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(next, fresh) {
		t.Fatal("a reload differs from a fresh load")
	}
	old := map[string]*EvidenceRun{}
	for _, r := range prev.Runs {
		old[r.Path] = r
	}
	for _, r := range next.Runs {
		o := old[r.Path]
		reused := o != nil && len(r.Rows) > 0 && len(o.Rows) > 0 && &o.Rows[0] == &r.Rows[0]
		switch p := r.Path; {
		case p == changed || p == added:
			if reused {
				t.Errorf("%s changed but was reused", r.RelPath)
			}
		case !reused:
			t.Errorf("%s did not change but was read again", r.RelPath)
		}
	}
	if got := next.Newest[gen.ID(0, 1)]; got.Outcome != "fail" {
		t.Errorf("the changed run's outcome is %q", got.Outcome)
	}
}

// A run is found by its path among the sorted runs, also when segment and
// stamp names sort otherwise as parts of a path ("m" before "m-a", but
// "m-a/" before "m/"); a path that is no run's is not.
func TestRunFoundByPath(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	names := []string{"a", "a b", "a!", "a-b", "a.c", "a0", "aa", "b", "b-", "b-c", "b.", "B"}
	for _, seg := range names {
		for _, stamp := range names {
			p := filepath.Join(dir, "work", seg, "evidence", stamp, "evidence.json")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, gen.Evidence("c", seg, "VAL-X", "pass", "2026-12-02T00:00:00.000Z"), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	ev, err := LoadEvidence(context.Background(), vfs.OS, dir)
	if err != nil || len(ev.Runs) != len(paths) {
		t.Fatalf("load: %d runs of %d, %v", len(ev.Runs), len(paths), err)
	}
	for _, p := range paths {
		if r := ev.run(p); r == nil || r.Path != p || !ev.Loaded(p) {
			t.Errorf("%s: not found", p)
		}
	}
	for _, p := range []string{
		filepath.Join(dir, "work", "a", "evidence", "c", "evidence.json"),
		filepath.Join(dir, "work", "a", "evidence", "a", "other.json"),
		filepath.Join(dir, "work", "a", "runs", "a", "evidence.json"),
		filepath.Join(dir, "else", "a", "evidence", "a", "evidence.json"),
		filepath.Join(filepath.Dir(dir), "x", "work", "a", "evidence", "a", "evidence.json"),
		"evidence.json",
	} {
		if ev.Loaded(p) {
			t.Errorf("%s: found, but it is no run", p)
		}
	}
	var none *Evidence
	if none.Loaded(paths[0]) {
		t.Error("nil evidence: found")
	}
}

// criterion-state.json's lastEvidencePath names a run when, cleaned, it is
// the run's path relative to the charter directory; otherwise it points to
// nothing and is criterion-state-drift.
func TestLastEvidencePathNamesARun(t *testing.T) {
	row := `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00.000Z"}`
	for path, drift := range map[string]int{
		"work/_charter/evidence/s/evidence.json":         0,
		"./work/_charter/evidence/s/evidence.json":       0,
		"work/_charter/evidence/x/../s/evidence.json":    0,
		"work/_charter/evidence/t/evidence.json":         1,
		"work/_charter/evidence/s/evidence.json/":        0,
		"work/_charter/evidence/s":                       1,
		"work/_charter/runs/s/evidence.json":             1,
		"/work/_charter/evidence/s/evidence.json":        1,
		"work/other/evidence/s/evidence.json":            1,
		"work/_charter/evidence/s/extra/evidence.json":   1,
		"work/_charter/evidence/s/../../_charter/x.json": 1,
	} {
		state := `{"charterId":"c","criteria":{"VAL-A-001":{"outcome":"pass","lastEvidencePath":"` + path + `","lastTs":"2026-01-01T00:00:00.000Z","lastSummary":"s"}}}`
		got := runCheck(t, map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook"),
			"work/_charter/evidence/s/evidence.json": row, "criterion-state.json": state}, noSources{})
		if got["criterion-state-drift"] != drift {
			t.Errorf("lastEvidencePath %q: %d criterion-state-drift, want %d", path, got["criterion-state-drift"], drift)
		}
	}
}
