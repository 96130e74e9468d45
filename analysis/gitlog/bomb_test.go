package gitlog_test

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// A loose object whose header understates its size (a "commit 116" that
// inflates to 64 MB: a zlib bomb of 64 KB, which a repository handed
// over as a folder or an archive can hold; a clone would refuse it) is
// refused after its declared size: reading history never inflates past
// what the header says. go-git inflated it all (2 GB from a 2 MB file).
func TestLooseObjectBombIsRefused(t *testing.T) {
	dir := repoWithSource(t)
	head := strings.TrimSpace(hostile.Git(t, dir, "rev-parse", "HEAD"))
	obj := filepath.Join(dir, ".git", "objects", head[:2], head[2:])
	zr, err := zlib.NewReader(bytes.NewReader(must(os.ReadFile(obj))))
	if err != nil {
		t.Fatal(err)
	}
	commit := must(io.ReadAll(zr))
	var bomb bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&bomb, zlib.BestCompression)
	zw.Write(commit)
	zeros := make([]byte, 1<<20)
	for range 64 { // more only costs the test: the bound is 32 MB
		zw.Write(zeros)
	}
	zw.Close()
	os.Chmod(obj, 0o644)
	if err := os.WriteFile(obj, bomb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Errorf("LastChange on a bomb answered %+v, want an error (no answer)", c)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("reading a 64 KB loose object allocated %d MB", alloc>>20)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A pack whose HEAD commit is a 9-byte delta on a 512 MB delta of a 64 KB
// commit (a 300-byte pack) is refused from the sizes the deltas declare,
// before anything is inflated: go-git built the 512 MB base first and
// checked the commit's size after (1.2-2.1 GB, 27 s). LastChange and
// Committed (status's sidecar check) both read HEAD.
func TestPackBombIsRefused(t *testing.T) {
	project := hostile.PackBomb(t)
	state := filepath.Join(project, ".pi", "charters", "auth-rework", "state.json")
	content := must(os.ReadFile(state))
	alloc := allocated(func() {
		c, err := gitlog.LastChange(t.Context(), project, []string{"src"}, gitlog.Limits{})
		if err == nil {
			t.Errorf("LastChange on the pack bomb answered %+v, want an error (no answer)", c)
		}
		t.Logf("LastChange: %v", err)
		if _, known := gitlog.Committed(t.Context(), state, content); known {
			t.Error("Committed on the pack bomb answered")
		}
	})
	t.Logf("allocated %d KB", alloc>>10)
	if alloc > 32<<20 {
		t.Errorf("reading a 300-byte pack allocated %d MB", alloc>>20)
	}
}

// A version 4 index whose 40,000 entries each extend the previous name
// by a byte (2.6 MB holding 800 MB of names) is given up on before the
// names are built: go-git decoded them all (380-520 MB).
func TestIndexBombIsRefused(t *testing.T) {
	project := hostile.IndexBomb(t)
	state := filepath.Join(project, ".pi", "charters", "auth-rework", "state.json")
	content := must(os.ReadFile(state))
	alloc := allocated(func() {
		if _, known := gitlog.Committed(t.Context(), state, content); known {
			t.Error("Committed on the index bomb answered")
		}
	})
	t.Logf("allocated %d KB", alloc>>10)
	if alloc > 32<<20 {
		t.Errorf("reading a 2.6 MB index allocated %d MB", alloc>>20)
	}
}

// Reading the index entries under the source folders (for the files
// changed since the last commit) gives up on both index bombs: names that
// grow past PATH_MAX, and 20,000 names of 4 KB that differ in their last
// bytes (1.4 MB, 80 MB of names), past the 32 MB an index read may keep.
func TestUncommittedGivesUpOnIndexBombs(t *testing.T) {
	for name, index := range map[string][]byte{"growing names": hostile.IndexV4Bomb(40_000), "long names": hostile.IndexV4LongNames(20_000)} {
		t.Run(name, func(t *testing.T) {
			project := hostile.IndexBomb(t)
			os.WriteFile(filepath.Join(project, ".git", "index"), index, 0o644)
			alloc := allocated(func() {
				r, err := gitlog.Open(t.Context(), project, gitlog.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if _, err := r.Uncommitted([]string{"src"}); !errors.Is(err, gitlog.ErrBudget) {
					t.Errorf("Uncommitted: %v, want ErrBudget", err)
				}
			})
			t.Logf("allocated %d KB", alloc>>10)
			if alloc > 64<<20 {
				t.Errorf("reading a %d KB index allocated %d MB", len(index)>>10, alloc>>20)
			}
		})
	}
}

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
