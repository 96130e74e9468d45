package gitlog_test

import (
	"bytes"
	"compress/zlib"
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
// inflates to 256 MB: a zlib bomb of 256 KB, which a repository handed
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
	for range 256 {
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
		t.Errorf("reading a 256 KB loose object allocated %d MB", alloc>>20)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
