package workspace

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// A read-once session (check) keeps nothing of an evidence run it read
// through, where a session that revalidates and reloads keeps each run's
// stat and digest; both answer the same diagnostics, a run's on itself
// too. Either way the run folders, each holding its evidence.json alone,
// share one listing.
func TestReadOnceKeepsNoRun(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if _, err := (gen.Project{Milestones: 2, VALs: 3, Runs: 40, State: true}).Write(root); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".pi", "charters", "bench")
	bad := filepath.Join(dir, "work", "m1", "evidence", "bad", "evidence.json")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"criterionId": "VAL-NOPE", "outcome": "ok", "summary": "x", "ts": "2026-11-01T00:00:00.000Z"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var want [][]diag.Diagnostic
	for _, readOnce := range []bool{false, true} {
		sess := NewSession(Options{ReadOnce: readOnce})
		snap := sess.Update(Change{Settings: &Settings{}})
		files := analysis.PiCharterFiles(snap.FS(), dir)
		got := make([][]diag.Diagnostic, len(files))
		var mu sync.Mutex
		if err := snap.DiagnosticsOf(ctx, files, false, func(i int, ds []diag.Diagnostic) {
			mu.Lock()
			got[i] = ds
			mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
		sess.Wait()
		if readOnce && !reflect.DeepEqual(got, want) {
			t.Errorf("a read-once session's diagnostics differ from a revalidating one's")
		}
		want = got
		onBad := false
		runs := 0
		var shared *listing
		d := sess.disk
		d.mu.Lock()
		for i, f := range files {
			if !isEvidenceRun(f) {
				continue
			}
			runs++
			onBad = onBad || f == bad && len(got[i]) > 0
			h := d.get(f)
			switch {
			case readOnce && !h.empty():
				t.Errorf("read-once: %s still held (stat %v, digest %v)", f, h.stat != nil, h.digest != nil)
			case !readOnce && (h.stat == nil || h.digest == nil):
				t.Errorf("revalidating: %s's stat or digest not kept", f)
			}
			l := d.get(filepath.Dir(f)).list
			if l == nil || shared != nil && l != shared {
				t.Errorf("%s: the run folder's listing is not the one shared", f)
			}
			shared = l
		}
		d.mu.Unlock()
		if runs != 41 || !onBad {
			t.Fatalf("%d runs checked, diagnostics on the bad one: %v; want 41 and true", runs, onBad)
		}
	}
}
