package lsp_test

import (
	"bytes"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/lsp"
)

// todoChecker stands in for analysis.CheckFile while the real checks land:
// it reports every "TODO" as section-partial, with the exact range of the
// word, and records what it was asked, so tests see the text and
// configuration the server passed.
type todoChecker struct {
	mu    sync.Mutex
	texts map[string]string   // path → the last text read through the overlay
	seen  map[string][]string // path → every text checked
	cfg   analysis.Config     // the configuration of the last call
	calls int
}

func newTodoChecker() *todoChecker {
	return &todoChecker{texts: map[string]string{}, seen: map[string][]string{}}
}

func (c *todoChecker) check(fsys vfs.FS, path string, cfg analysis.Config) ([]diag.Diagnostic, error) {
	// Read and record under one lock: a run the server has already replaced
	// may still be checking, and on a busy machine its older text could
	// otherwise be recorded after the newer run's.
	c.mu.Lock()
	src, err := fsys.ReadFile(path)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	c.texts[path] = string(src)
	c.seen[path] = append(c.seen[path], string(src))
	c.cfg = cfg
	c.calls++
	c.mu.Unlock()
	var ds []diag.Diagnostic
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte("TODO"))
		if i < 0 {
			break
		}
		ds = append(ds, diag.New(diag.SectionPartial, source.Span{Start: off + i, End: off + i + 4}, "TODO left in the text"))
		off += i + 4
	}
	diag.Locate(ds, path, source.NewIndex(src))
	return ds, nil
}

func (c *todoChecker) text(path string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts[path]
}

// saw reports whether a check of path read text (a check of an older
// version may finish after a newer one: snapshots are checked concurrently).
func (c *todoChecker) saw(path, text string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.seen[path] {
		if t == text {
			return true
		}
	}
	return false
}

func (c *todoChecker) callCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

func (c *todoChecker) config() analysis.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg
}

func (c *todoChecker) options() lsp.Options { return lsp.Options{Checker: c.check} }

func intp(n int) *int { return &n }
