package gitlog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Repository is the repository of one project, opened for several
// questions under one budget (Limits): the last change to some folders, and
// which of their files changed since.
type Repository struct {
	project  string // absolute
	workTree string
	r        *repo
	b        *budget
	lim      Limits
	cancel   context.CancelFunc
	head     *object.Commit // nil before the first commit
}

// Open finds and opens the repository of project's work tree (see find).
// The caller closes it.
func Open(ctx context.Context, project string, lim Limits) (*Repository, error) {
	return (*Finder)(nil).Open(ctx, project, lim)
}

// Open is gitlog.Open with f finding the repository.
func (f *Finder) Open(ctx context.Context, project string, lim Limits) (*Repository, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	b := &budget{ctx: ctx, maxBytes: lim.Bytes}
	abs, err := filepath.Abs(project)
	if err != nil {
		cancel()
		return nil, err
	}
	workTree, gitDir, err := f.find(abs)
	if err != nil {
		cancel()
		return nil, err
	}
	r, err := open(gitDir, b)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Repository{project: abs, workTree: workTree, r: r, b: b, lim: lim, cancel: cancel}, nil
}

// Close releases the repository's files.
func (r *Repository) Close() {
	r.r.Close()
	r.cancel()
}

// repoPaths are dirs (folders relative to the project) as repository
// paths; folders outside the work tree are left out.
func (r *Repository) repoPaths(dirs []string) []string {
	var paths []string
	for _, d := range dirs {
		rel, err := filepath.Rel(r.workTree, filepath.Join(r.project, filepath.FromSlash(d)))
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			continue
		}
		paths = append(paths, filepath.ToSlash(rel))
	}
	return paths
}

// Uncommitted tells which files under some folders differ from the last
// commit, as git status would say: read once from the index and HEAD.
type Uncommitted struct {
	r        *Repository
	w        *walker
	index    map[string]indexEntry // entries under the folders
	gitlinks []string              // submodules under the folders
	// indexTime is the index file's time: a file changed in the same
	// second may still match its entry's time (git's "racily clean").
	indexTime time.Time
	ignores   map[string][]gitignore.Pattern // by folder, "" the top
	exclude   []gitignore.Pattern            // info/exclude
}

// Uncommitted reads the index entries under dirs (folders relative to the
// project). A missing index holds nothing: every file is then new.
func (r *Repository) Uncommitted(dirs []string) (*Uncommitted, error) {
	paths := r.repoPaths(dirs)
	u := &Uncommitted{r: r, w: &walker{st: r.r, b: r.b}, index: map[string]indexEntry{}, ignores: map[string][]gitignore.Pattern{}}
	entries, err := r.r.index(func(name []byte) bool { return underAny(name, paths) })
	if err != nil && !isMissing(err) {
		return nil, err
	}
	for _, e := range entries {
		if e.mode == filemode.Submodule {
			u.gitlinks = append(u.gitlinks, e.name)
			continue
		}
		if old, ok := u.index[e.name]; ok && old.stage == 0 {
			continue
		}
		u.index[e.name] = e
	}
	if fi, err := r.r.fs.Stat("index"); err == nil {
		u.indexTime = fi.ModTime()
	}
	if src, err := readSmall(r.r.fs, "info/exclude"); err == nil {
		u.exclude = patterns(src, nil)
	}
	if r.head == nil {
		if _, err := r.headCommit(); err != nil && !errors.Is(err, errNoHead) {
			return nil, err
		}
	}
	return u, nil
}

// Changed reports whether the file at path (absolute, under the folders
// given to Uncommitted), whose stat is fi, differs from the last commit:
// edited (its content is not the index's), staged (the index's is not the
// commit's), in conflict, or new and not ignored by .gitignore or
// info/exclude. A file of a submodule is not ours to judge: false.
func (u *Uncommitted) Changed(p string, fi fs.FileInfo) (bool, error) {
	if err := u.r.b.check(); err != nil {
		return false, err
	}
	rel, err := filepath.Rel(u.r.workTree, p)
	if err != nil || !filepath.IsLocal(rel) {
		return false, nil
	}
	name := filepath.ToSlash(rel)
	for _, g := range u.gitlinks {
		if strings.HasPrefix(name, g+"/") {
			return false, nil
		}
	}
	e, tracked := u.index[name]
	switch {
	case !tracked:
		ignored, err := u.ignored(name)
		return !ignored, err
	case e.stage != 0 || e.intentToAdd:
		return true, nil
	}
	if !e.assumeUnchanged && !u.matchesStat(e, fi) {
		content, err := vfs.ReadFile(p, 64<<20)
		if err != nil {
			return true, nil // unreadable or too large to hash: its time counts
		}
		if err := u.r.b.spend(int64(len(content))); err != nil {
			return false, err
		}
		if plumbing.ComputeHash(plumbing.BlobObject, content) != e.hash {
			return true, nil
		}
	}
	if u.r.head == nil {
		return true, nil // staged for the first commit
	}
	committed, err := u.w.lookup(u.r.head.TreeHash, name)
	if err != nil {
		return false, err
	}
	return committed.hash != e.hash || committed.mode != e.mode, nil
}

// matchesStat is git's quick test: the size and modification time the
// index recorded, unless the file changed in the same second as the index
// was written (then only its content can tell).
func (u *Uncommitted) matchesStat(e indexEntry, fi fs.FileInfo) bool {
	mt := fi.ModTime()
	return uint32(fi.Size()) == e.size && mt.Unix() == e.mtime.Unix() && mt.Nanosecond() == e.mtime.Nanosecond() &&
		(u.indexTime.IsZero() || mt.Before(u.indexTime.Truncate(time.Second)))
}

// ignored applies the .gitignore files from the top of the work tree down
// to name's folder, and info/exclude, as git does for an untracked file.
// The user's global excludes file is not read.
func (u *Uncommitted) ignored(name string) (bool, error) {
	ps := append([]gitignore.Pattern(nil), u.exclude...)
	parts := strings.Split(name, "/")
	for i := range len(parts) {
		dir := strings.Join(parts[:i], "/")
		own, ok := u.ignores[dir]
		if !ok {
			file := filepath.Join(u.r.workTree, filepath.FromSlash(path.Join(dir, ".gitignore")))
			if src, err := vfs.ReadFile(file, 1<<20); err == nil {
				if err := u.r.b.spend(int64(len(src))); err != nil {
					return false, err
				}
				own = patterns(src, parts[:i])
			}
			u.ignores[dir] = own
		}
		ps = append(ps, own...)
	}
	return gitignore.NewMatcher(ps).Match(parts, false), nil
}

// patterns parses a .gitignore file of the folder domain.
func patterns(src []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}

// errNoHead: the repository has no commit yet.
var errNoHead = fmt.Errorf("%w: no commit yet", ErrNoChange)

// headCommit reads HEAD's commit once.
func (r *Repository) headCommit() (*object.Commit, error) {
	if r.head != nil {
		return r.head, nil
	}
	w := &walker{st: r.r, b: r.b}
	h, err := w.headHash()
	if err != nil {
		return nil, err
	}
	c, err := w.commit(h)
	if err != nil {
		return nil, err
	}
	r.head = c
	return c, nil
}

// readSmall reads a small file of the git directory (at most 1 MB).
func readSmall(fsys billy.Filesystem, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

func isMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
