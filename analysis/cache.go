package analysis

import (
	"bytes"
	"strings"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Cache keeps what successive checks of the same files share, so the
// server's check after a keystroke redoes only what the keystroke changed:
// each criteria.md's parser (unchanged blocks are reused), each file's line
// index (updated, not rebuilt), and the source clock of freshness checks
// (walked once, refreshed by SourcesChanged on file-watch events, never per
// keystroke). Results equal those of an uncached check. Safe for concurrent
// use.
type Cache struct {
	mu       sync.Mutex
	criteria map[string]*pi.CriteriaParser
	indexes  map[string]*source.Index
	clockKey string
	clock    *pi.CachingClock
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{criteria: map[string]*pi.CriteriaParser{}, indexes: map[string]*source.Index{}}
}

// CheckFile is analysis.CheckFile using the cache.
func (c *Cache) CheckFile(fsys vfs.FS, path string, cfg Config) ([]diag.Diagnostic, error) {
	ch := Checker{FS: fsys, Config: &cfg, Cache: c, Clock: c.Clock(cfg, fsys)}
	return ch.file(path)
}

// LoadDir loads a charter directory reusing the cache's parsers and indexes.
func (c *Cache) LoadDir(fsys vfs.FS, dir string) *pi.Dir {
	return pi.LoadDirWith(fsys, dir, c.loadOptions())
}

func (c *Cache) loadOptions() pi.LoadOptions {
	if c == nil {
		return pi.LoadOptions{}
	}
	return pi.LoadOptions{Criteria: func(path string, src []byte) *pi.Criteria { return c.Criteria(path).Parse(src) }, Index: c.Index}
}

// Criteria returns the parser that remembers the criteria.md at path.
func (c *Cache) Criteria(path string) *pi.CriteriaParser {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.criteria[path]
	if p == nil {
		p = new(pi.CriteriaParser)
		c.criteria[path] = p
	}
	return p
}

// Index returns the line index of src, the content of path, derived from
// the previous one of path when there is one.
func (c *Cache) Index(path string, src []byte) *source.Index {
	c.mu.Lock()
	prev := c.indexes[path]
	c.mu.Unlock()
	var ix *source.Index
	switch {
	case prev == nil:
		ix = source.NewIndex(src)
	case bytes.Equal(prev.Source(), src):
		return prev
	default:
		ix = prev.Update(src)
	}
	c.mu.Lock()
	c.indexes[path] = ix
	c.mu.Unlock()
	return ix
}

// Clock returns the cached source clock for cfg's freshness settings; a
// change of those settings starts a new cache.
func (c *Cache) Clock(cfg Config, fsys vfs.FS) pi.SourceClock {
	key := cfg.FreshnessMode() + "\x00" + strings.Join(cfg.Sources(), "\x00")
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clock == nil || c.clockKey != key {
		c.clock = &pi.CachingClock{Clock: pi.NewSourceClock(cfg.FreshnessMode(), fsys, cfg.Sources())}
		c.clockKey = key
	}
	return c.clock
}

// SourcesChanged forgets the source clock's answer for project ("" for
// every project): a source file changed on disk.
func (c *Cache) SourcesChanged(project string) {
	c.mu.Lock()
	clock := c.clock
	c.mu.Unlock()
	if clock != nil {
		clock.Invalidate(project)
	}
}

// Forget drops what the cache holds for path (a closed or deleted file).
func (c *Cache) Forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.criteria, path)
	delete(c.indexes, path)
}
