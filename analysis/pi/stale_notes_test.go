package pi

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// The stale diagnostics' messages kept for the next views of a charter
// (viewCarry.staleNotes) are those the latest check used: a long editing
// session that makes VAL after VAL stale while the evidence stays (the
// carry lives on) keeps no message of a VAL that is no longer stale.
func TestStaleNotesKeepOnlyTheCurrentStale(t *testing.T) {
	path, err := gen.Project{Milestones: 4, VALs: 10, Runs: 80, State: true}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	ev := LoadDir(vfs.OS, dir).Evidence
	var passing []string
	for id, r := range LatestResults(LoadDir(vfs.OS, dir)) {
		if r.Outcome == Pass {
			passing = append(passing, id)
		}
	}
	sort.Strings(passing)
	if len(passing) < 10 {
		t.Fatalf("%d passing VALs: the test sees too little", len(passing))
	}
	clock := fixedClock{Time: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), Path: "/p/src/a.go"}
	now := clock.Time.Add(time.Hour)
	var prev *View
	for i, id := range passing {
		// The register names one VAL at a time, the one before renamed away.
		register := "# Criteria\n\n## m1 One\n\n### " + id + " — now\nVerifier: manual\nBecause: b\nFresh evidence required: true\n"
		if err := os.WriteFile(path, []byte(register), 0o644); err != nil {
			t.Fatal(err)
		}
		var prevDir *Dir
		if prev != nil {
			prevDir = prev.Dir
		}
		v := NextView(prev, vfs.OS, LoadDirWith(vfs.OS, dir, LoadOptions{Evidence: ev, Prev: prevDir}), clock)
		if prev != nil && v.carry != prev.carry {
			t.Fatalf("step %d: the evidence is the same, yet nothing was carried", i)
		}
		Check(context.Background(), v, Options{Now: now})
		if len(v.Stale) != 1 {
			t.Fatalf("step %d: %d stale VALs, want %s alone", i, len(v.Stale), id)
		}
		if n := len(v.carry.staleNotes); n > len(v.Stale) {
			t.Fatalf("step %d: %d stale messages kept for %d stale VALs", i, n, len(v.Stale))
		}
		prev = v
	}
}
