package pi

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// DefaultSourceDirs are upstream's freshness folders: <project>/src.
var DefaultSourceDirs = []string{"src"}

// SourceChange is when a project's source last changed.
type SourceChange struct {
	Time time.Time
	Path string // the file changed, when the clock knows it
	// Shallow: Time is the commit where a shallow clone's history ends,
	// which git counts as adding every file it holds; the change may be
	// older, so Time is only an upper bound and evidence older than it
	// cannot be judged.
	Shallow bool
	// With holds the files committed together with the change (absolute
	// paths): evidence recorded for that very state of the sources.
	With map[string]bool
	// Unread, when set, says why the history could not be read: the newest
	// change is unknown (Time is zero), so no pass can be judged.
	Unread *Unreadable
}

// Unreadable is why the git clock could not date the sources: its reading
// of the history went past its deadline (a busy machine, or a very large
// history: Timeout is set), over its budget (gitlog.ErrBudget), or met
// something it cannot read (a partial clone missing an object, a damaged
// object). It is not "no source": evidence is then neither fresh nor stale.
type Unreadable struct {
	Err     error
	Timeout time.Duration // the deadline that passed; zero when time was not the cause
}

// TimedOut reports whether the reading ran out of time, which another
// reading, at a quieter moment, may not.
func (u *Unreadable) TimedOut() bool { return u.Timeout > 0 }

// OverBudget reports whether the history is larger than a reading may
// cost: another reading gives up again.
func (u *Unreadable) OverBudget() bool { return !u.TimedOut() && errors.Is(u.Err, gitlog.ErrBudget) }

// SourceClock tells when a project's source last changed, the baseline that
// makes fresh-required evidence stale. ok is false when there is no source
// (no folder, no file, no commit): then nothing is stale, as upstream. A
// clock that cannot tell answers ok with SourceChange.Unread set.
type SourceClock interface {
	Newest(project string) (c SourceChange, ok bool)
}

// ContextClock is a SourceClock whose reading stops when ctx is done (a
// walk over a large source tree, a history read): it then returns ctx's
// error.
type ContextClock interface {
	SourceClock
	NewestContext(ctx context.Context, project string) (c SourceChange, ok bool, err error)
}

// NewestSource asks clock for project's newest source change under ctx
// when the clock can stop early, and without it otherwise.
func NewestSource(ctx context.Context, clock SourceClock, project string) (SourceChange, bool, error) {
	if c, ok := clock.(ContextClock); ok {
		return c.NewestContext(ctx, project)
	}
	if err := ctx.Err(); err != nil {
		return SourceChange{}, false, err
	}
	c, ok := clock.Newest(project)
	return c, ok, nil
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
		return GitClock{FS: fsys, Dirs: dirs, Fallback: mtime}
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
	// After and Counts, when set, limit the answer to the files newer
	// than After that Counts accepts (the git clock asks for the files
	// changed since the last commit); an error from Counts ends the walk
	// and is returned.
	After  time.Time
	Counts func(path string, info fs.FileInfo) (bool, error)
}

func (c MtimeClock) Newest(project string) (SourceChange, bool) {
	ch, ok, _ := c.NewestContext(context.Background(), project)
	return ch, ok
}

// NewestContext is Newest that stops, with ctx's error, when ctx is done
// (checked per folder of the walk).
func (c MtimeClock) NewestContext(ctx context.Context, project string) (SourceChange, bool, error) {
	var best time.Time
	var bestPath string
	found := false
	var countErr error
	budget := c.MaxEntries
	if budget <= 0 {
		budget = 200_000
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 || budget <= 0 || ctx.Err() != nil || countErr != nil {
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
			p := vfs.Join(dir, e.Name())
			switch {
			case e.IsDir():
				walk(p, depth+1)
			case e.Type().IsRegular():
				info, err := c.FS.Stat(p)
				if err != nil || !info.ModTime().After(c.After) || found && !info.ModTime().After(best) {
					continue
				}
				if c.Counts != nil {
					counts, err := c.Counts(p, info)
					if err != nil {
						countErr = err
						return
					}
					if !counts {
						continue
					}
				}
				best, bestPath, found = info.ModTime(), p, true
			}
		}
	}
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	for _, d := range c.Dirs {
		root := filepath.Join(project, filepath.FromSlash(d))
		if !vfs.WithinListed(c.FS, project, root) {
			continue // a link out of the project: not ours to date
		}
		walk(root, 0)
	}
	if err := ctx.Err(); err != nil {
		return SourceChange{}, false, err
	}
	if countErr != nil {
		return SourceChange{}, false, countErr
	}
	return SourceChange{Time: best, Path: bestPath}, found, nil
}

// GitClock dates the sources by git (FreshnessGit), read by analysis/gitlog
// without running git or anything else (see there for why): the committer
// time of the last commit touching Dirs, as `git log -1 --format=%cI
// --name-only -- <dirs>` would, or the file time of a file under Dirs
// changed since that commit (edited, staged, or new and not ignored: git
// status's changes), whichever is newer. A fresh clone's file times are
// the clone's, so they date nothing that is committed. Outside a git
// repository it falls back to the mtime rule; a history it cannot read
// (past the deadline of Limits or over its budget, a partial clone missing
// objects) is answered with Unread set: not known, which is not fresh.
type GitClock struct {
	FS     vfs.FS // walked for the files changed since the last commit
	Dirs   []string
	Limits gitlog.Limits
	// Fallback dates the sources outside a repository; nil: no answer.
	Fallback SourceClock
	// Repos, when set, finds the repository, sharing what it saw with the
	// clocks of other projects (a monorepo's packages).
	Repos *gitlog.Finder
}

// WithFolders are the folders, relative to the project, whose files
// committed together with the last source change count as recorded for it:
// the charters' evidence runs.
var WithFolders = []string{".pi/charters"}

func (c GitClock) Newest(project string) (SourceChange, bool) {
	ch, ok, _ := c.NewestContext(context.Background(), project)
	return ch, ok
}

// NewestContext is Newest that stops reading the history, returning ctx's
// error, when ctx is done first.
func (c GitClock) NewestContext(ctx context.Context, project string) (SourceChange, bool, error) {
	repo, err := c.Repos.Open(ctx, project, c.Limits)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return SourceChange{}, false, ctx.Err()
	case errors.Is(err, gitlog.ErrNoRepository):
		if c.Fallback != nil {
			return NewestSource(ctx, c.Fallback, project)
		}
		return SourceChange{}, false, nil
	default:
		return c.unread(err), true, nil
	}
	defer repo.Close()
	var out SourceChange
	found := false
	ch, err := repo.LastChange(c.Dirs, WithFolders)
	switch {
	case ctx.Err() != nil:
		return SourceChange{}, false, ctx.Err()
	case err == nil:
		out, found = SourceChange{Time: ch.Time, Path: ch.Path, Shallow: ch.Shallow}, true
		if len(ch.With) > 0 {
			out.With = map[string]bool{}
			for _, p := range ch.With {
				out.With[p] = true
			}
		}
	case !errors.Is(err, gitlog.ErrNoChange):
		return c.unread(err), true, nil
	}
	// The files changed since that commit count by their own time.
	changes, err := repo.Uncommitted(c.Dirs)
	switch {
	case ctx.Err() != nil:
		return SourceChange{}, false, ctx.Err()
	case err != nil:
		return c.unread(err), true, nil
	}
	fsys := c.FS
	if fsys == nil {
		fsys = vfs.OS
	}
	edited, ok, err := MtimeClock{FS: fsys, Dirs: c.Dirs, After: out.Time, Counts: changes.Changed}.NewestContext(ctx, project)
	switch {
	case ctx.Err() != nil:
		return SourceChange{}, false, ctx.Err()
	case err != nil:
		return c.unread(err), true, nil
	case ok:
		return edited, true, nil
	}
	return out, found, nil
}

// unread is the answer of a reading that gave up with err (ctx not done).
func (c GitClock) unread(err error) SourceChange {
	u := &Unreadable{Err: err}
	if errors.Is(err, context.DeadlineExceeded) {
		u.Timeout = c.Limits.WithDefaults().Timeout
	}
	return SourceChange{Unread: u}
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
