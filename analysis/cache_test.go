package analysis

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestCacheMatchesUncachedCheck edits criteria.md at random (through an
// overlay, as the server does) and checks that the cached check gives the
// same diagnostics, in the same order with the same ranges, as a check from
// scratch.
func TestCacheMatchesUncachedCheck(t *testing.T) {
	path, err := gen.Project{Milestones: 4, VALs: 5, Runs: 6, Sources: 3}.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := gen.Criteria(4, 5)
	pieces := []string{"x", "\n", "\r\n", "## m9 New\n", "### VAL-NEW-001 T\n", "Verifier: ", "commnad", "Command: go test\n", "é", "#"}
	rng := rand.New(rand.NewPCG(3, 4))
	cache := NewCache()
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for step := 0; step < 150; step++ {
		at := rng.IntN(len(src) + 1)
		end := min(len(src), at+rng.IntN(3))
		ins := pieces[rng.IntN(len(pieces))]
		src = append(append(append([]byte{}, src[:at]...), ins...), src[end:]...)
		fsys := overlayFS{FS: vfs.OS, path: path, text: src}
		cfg := Config{}
		cached := Checker{FS: fsys, Config: &cfg, Now: now, Cache: cache, Clock: cache.Clock(cfg, fsys)}
		fresh := Checker{FS: fsys, Config: &cfg, Now: now}
		got, err1 := cached.CheckPath(path)
		want, err2 := fresh.CheckPath(path)
		if err1 != nil || err2 != nil {
			t.Fatalf("step %d: %v, %v", step, err1, err2)
		}
		if len(want) == 0 {
			t.Fatalf("step %d: no diagnostics at all; the generated register should have some", step)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: cached check differs:\n got %v\nwant %v", step, got, want)
		}
	}
}
