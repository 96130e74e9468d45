package pi

import (
	"context"
	"errors"
	"path/filepath"
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

// NewSourceClock returns the clock for a freshness mode (unset: the
// default, FreshnessGit). dirs default to ["src"].
func NewSourceClock(mode Freshness, fsys vfs.FS, dirs []string) SourceClock {
	if len(dirs) == 0 {
		dirs = DefaultSourceDirs
	}
	if fsys == nil {
		fsys = vfs.OS
	}
	mtime := MtimeClock{FS: fsys, Dirs: dirs}
	if mode.OrDefault() == FreshnessGit {
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
	t, p, ok, _ := c.NewestContext(context.Background(), project)
	return t, p, ok
}

// NewestContext is Newest that stops, with ctx's error, when ctx is done
// (checked per folder of the walk).
func (c MtimeClock) NewestContext(ctx context.Context, project string) (time.Time, string, bool, error) {
	var best time.Time
	var bestPath string
	found := false
	budget := c.MaxEntries
	if budget <= 0 {
		budget = 200_000
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 || budget <= 0 || ctx.Err() != nil {
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
	if err := ctx.Err(); err != nil {
		return time.Time{}, "", false, err
	}
	return best, bestPath, found, nil
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
	t, p, ok, _ := c.NewestContext(context.Background(), project)
	return t, p, ok
}

// NewestContext is Newest that stops reading the history, returning ctx's
// error, when ctx is done first.
func (c GitClock) NewestContext(ctx context.Context, project string) (time.Time, string, bool, error) {
	ch, err := gitlog.LastChange(ctx, project, c.Dirs, c.Limits)
	if e := ctx.Err(); e != nil {
		return time.Time{}, "", false, e
	}
	switch {
	case err == nil:
		return ch.Time, ch.Path, true, nil
	case errors.Is(err, gitlog.ErrNoRepository) && c.Fallback != nil:
		return NewestSource(ctx, c.Fallback, project)
	}
	return time.Time{}, "", false, nil
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
