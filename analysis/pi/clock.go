package pi

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// DefaultSourceDirs are upstream's freshness folders: <project>/src.
var DefaultSourceDirs = []string{"src"}

// SourceClock tells when a project's source last changed, the baseline that
// makes fresh-required evidence stale. ok is false when there is no source
// (no folder, no file, no commit): then nothing is stale, as upstream.
type SourceClock interface {
	Newest(project string) (t time.Time, path string, ok bool)
}

// NewSourceClock returns the clock for a freshness mode: "git" (last commit
// touching dirs; the mtime rule outside a repository) or anything else for
// "mtime" (newest file time, upstream's rule). dirs default to ["src"].
func NewSourceClock(mode string, fsys vfs.FS, dirs []string) SourceClock {
	if len(dirs) == 0 {
		dirs = DefaultSourceDirs
	}
	if fsys == nil {
		fsys = vfs.OS
	}
	mtime := MtimeClock{FS: fsys, Dirs: dirs}
	if mode == "git" {
		return GitClock{Dirs: dirs, Fallback: mtime}
	}
	return mtime
}

// MtimeClock is upstream's rule: the newest modification time of any regular
// file under <project>/<dir>. Symbolic links are not followed, a source
// folder that resolves outside the project (src -> /) is not walked at
// all, and a walk stops after MaxEntries entries.
type MtimeClock struct {
	FS   vfs.FS
	Dirs []string
	// MaxEntries bounds one walk (default 200,000 entries): past it the
	// newest time seen so far is the answer.
	MaxEntries int
}

func (c MtimeClock) Newest(project string) (time.Time, string, bool) {
	var best time.Time
	var bestPath string
	found := false
	budget := c.MaxEntries
	if budget <= 0 {
		budget = 200_000
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 || budget <= 0 {
			return
		}
		entries, err := c.FS.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return
			}
			p := filepath.Join(dir, e.Name())
			switch {
			case e.IsDir():
				walk(p, depth+1)
			case e.Type().IsRegular():
				info, err := c.FS.Stat(p)
				if err != nil {
					continue
				}
				if !found || info.ModTime().After(best) {
					best, bestPath = info.ModTime(), p
				}
				found = true
			}
		}
	}
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	for _, d := range c.Dirs {
		root := filepath.Join(project, filepath.FromSlash(d))
		if !vfs.Within(project, root) {
			continue // a link out of the project: not ours to date
		}
		walk(root, 0)
	}
	return best, bestPath, found
}

// GitClock dates the sources by the committer time of the last commit
// touching Dirs, as `git log -1 --format=%cI --name-only -- <dirs>` would,
// read by analysis/gitlog without running git or anything else (see there
// for why). The path is the first file of that commit under Dirs. Outside
// a git repository it falls back to the mtime rule; a history it cannot
// read (a partial clone missing objects, over the budget) has no answer
// (ok false: nothing is stale).
type GitClock struct {
	Dirs   []string
	Limits gitlog.Limits
	// Fallback dates the sources outside a repository; nil: no answer.
	Fallback SourceClock
}

func (c GitClock) Newest(project string) (time.Time, string, bool) {
	ch, err := gitlog.LastChange(context.Background(), project, c.Dirs, c.Limits)
	switch {
	case err == nil:
		return ch.Time, ch.Path, true
	case errors.Is(err, gitlog.ErrNoRepository) && c.Fallback != nil:
		return c.Fallback.Newest(project)
	}
	return time.Time{}, "", false
}

// GitUnchanged reports whether the file at path is what the last commit
// holds (git's object database, read by gitlog: no program is run). known is
// false outside a repository and for a file the last commit does not hold:
// then git cannot tell.
func GitUnchanged(path string) (unchanged, known bool) {
	content, err := vfs.OS.ReadFile(path)
	if err != nil {
		return false, false
	}
	return gitlog.Committed(context.Background(), path, content)
}

// CachingClock remembers each project's answer until Invalidate, so the
// server can walk the source tree once and refresh on file-watch events.
// No lock is held while an answer is computed: callers asking about the
// same project wait for the one computation, others go on.
type CachingClock struct {
	Clock SourceClock
	mu    sync.Mutex
	cache map[string]*reading
	gen   uint64 // bumped by Invalidate: older computations are not kept
}

type reading struct {
	done chan struct{} // closed when t, path, ok are set
	t    time.Time
	path string
	ok   bool
}

func (c *CachingClock) Newest(project string) (time.Time, string, bool) {
	c.mu.Lock()
	if r, hit := c.cache[project]; hit {
		c.mu.Unlock()
		<-r.done
		return r.t, r.path, r.ok
	}
	r := &reading{done: make(chan struct{})}
	if c.cache == nil {
		c.cache = map[string]*reading{}
	}
	c.cache[project] = r
	gen := c.gen
	c.mu.Unlock()

	defer close(r.done)
	r.t, r.path, r.ok = c.Clock.Newest(project)
	c.mu.Lock()
	if c.gen != gen && c.cache[project] == r {
		delete(c.cache, project) // invalidated meanwhile: answer once, keep nothing
	}
	c.mu.Unlock()
	return r.t, r.path, r.ok
}

// Invalidate forgets project ("" forgets all).
func (c *CachingClock) Invalidate(project string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if project == "" {
		c.cache = nil
		return
	}
	delete(c.cache, project)
}
