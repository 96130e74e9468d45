package pi

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// SourceClock tells when a project's source last changed, the baseline that
// makes fresh-required evidence stale. ok is false when there is no source
// (no folder, no file, no commit): then nothing is stale, as upstream.
type SourceClock interface {
	Newest(project string) (t time.Time, path string, ok bool)
}

// ContextClock is a SourceClock whose reading stops when ctx is done (a
// walk over a large source tree, a git call): it then returns ctx's error.
type ContextClock interface {
	SourceClock
	NewestContext(ctx context.Context, project string) (t time.Time, path string, ok bool, err error)
}

// NewestSource asks clock for project's newest source change under ctx
// when the clock can stop early, and without it otherwise.
func NewestSource(ctx context.Context, clock SourceClock, project string) (time.Time, string, bool, error) {
	if c, ok := clock.(ContextClock); ok {
		return c.NewestContext(ctx, project)
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, "", false, err
	}
	t, p, ok := clock.Newest(project)
	return t, p, ok, nil
}

// NewSourceClock returns the clock for a freshness mode: "git" (last commit
// touching dirs) or anything else for "mtime" (newest file time, upstream's
// rule). dirs default to ["src"].
func NewSourceClock(mode string, fsys vfs.FS, dirs []string) SourceClock {
	if len(dirs) == 0 {
		dirs = []string{"src"}
	}
	if mode == "git" {
		return GitClock{Dirs: dirs}
	}
	if fsys == nil {
		fsys = vfs.OS
	}
	return MtimeClock{FS: fsys, Dirs: dirs}
}

// MtimeClock is upstream's rule: the newest modification time of any regular
// file under <project>/<dir> (symlinks are not followed).
type MtimeClock struct {
	FS   vfs.FS
	Dirs []string
}

func (c MtimeClock) Newest(project string) (time.Time, string, bool) {
	t, p, ok, _ := c.NewestContext(context.Background(), project)
	return t, p, ok
}

// NewestContext is Newest that stops, with ctx's error, when ctx is done
// (checked per folder of the walk).
func (c MtimeClock) NewestContext(ctx context.Context, project string) (time.Time, string, bool, error) {
	var best time.Time
	var bestPath string
	found := false
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 || ctx.Err() != nil {
			return
		}
		entries, err := c.FS.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
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
	for _, d := range c.Dirs {
		walk(filepath.Join(project, filepath.FromSlash(d)), 0)
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, "", false, err
	}
	return best, bestPath, found, nil
}

// GitClock uses the committer time of the last commit touching Dirs:
// `git log -1 --format=%cI --name-only -- <dirs>` run in the project. It is
// a fixed git invocation, never a charter command. The path is the first
// file of that commit under Dirs. Not a repository, or no such commit: ok
// is false.
type GitClock struct {
	Dirs    []string
	Timeout time.Duration // default 10s
}

func (c GitClock) Newest(project string) (time.Time, string, bool) {
	t, p, ok, _ := c.NewestContext(context.Background(), project)
	return t, p, ok
}

// NewestContext is Newest that kills git, returning ctx's error, when ctx is
// done first.
func (c GitClock) NewestContext(parent context.Context, project string) (time.Time, string, bool, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	args := append([]string{"log", "-1", "--format=%cI", "--name-only", "--"}, c.Dirs...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = project
	out, err := cmd.Output()
	if err := parent.Err(); err != nil {
		return time.Time{}, "", false, err
	}
	if err != nil {
		return time.Time{}, "", false, nil
	}
	lines := strings.Split(string(bytes.TrimSpace(out)), "\n")
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(lines[0]))
	if err != nil {
		return time.Time{}, "", false, nil
	}
	path := ""
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			path = filepath.Join(project, filepath.FromSlash(l))
			break
		}
	}
	return t, path, true, nil
}

// CachingClock remembers each project's answer until Invalidate, so the
// server can walk the source tree once and refresh on file-watch events.
type CachingClock struct {
	Clock SourceClock
	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	t    time.Time
	path string
	ok   bool
}

func (c *CachingClock) Newest(project string) (time.Time, string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, hit := c.cache[project]; hit {
		return v.t, v.path, v.ok
	}
	t, p, ok := c.Clock.Newest(project)
	if c.cache == nil {
		c.cache = map[string]cached{}
	}
	c.cache[project] = cached{t, p, ok}
	return t, p, ok
}

// Invalidate forgets project ("" forgets all).
func (c *CachingClock) Invalidate(project string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if project == "" {
		c.cache = nil
		return
	}
	delete(c.cache, project)
}
