// Package gitlog answers one question about a project's git history — when
// did the last commit touching these folders land, and which file did it
// change — as `git log -1 --format=%cI --name-only -- <dirs>` would, but
// without running git or anything else.
//
// Running git in a repository someone else prepared runs what that
// repository configures: signature programs (log.showSignature with
// gpg.program or gpg.ssh.program), a lazy fetch of a partial clone through
// an ext:: remote, fsmonitor hooks, pagers, and a folder that is itself a
// bare repository with such a configuration. The git here is 2.39, older
// than GIT_NO_LAZY_FETCH, so no invocation can rule all of that out. This
// package reads the object database with go-git's storage layer instead,
// which interprets no configuration that runs programs and never fetches: a
// missing object is an error, not a download.
//
// It also bounds the work: only a .git found above the project counts (a
// project folder shaped like a bare repository is never taken for one);
// reads go through a read-only, regular-files-only file system kept inside
// the git directory; objects and the index are read here, every size they
// declare checked before anything is inflated or built (objects.go,
// index.go); and a deadline, a commit count and a byte count cap what one
// answer may cost.
package gitlog

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Change is the newest commit that touched the folders.
type Change struct {
	Time   time.Time // committer time, as %cI
	Path   string    // the first file it changed under the folders (absolute); "" for a merge
	Commit string
	// Shallow: the commit is where a shallow clone's history ends (a CI
	// checkout of depth 1). git log treats it as a root, as if it added
	// every file it holds, so the last change may be older: Time is only
	// an upper bound.
	Shallow bool
	// With lists the files (absolute) the commit added under the folders
	// Repository.LastChange was given as with: committed together with
	// the change. None for a merge or a shallow clone's last commit.
	With []string
}

// Limits bound one LastChange. The zero value means the defaults.
type Limits struct {
	Timeout time.Duration // default 5 s
	Commits int           // commits looked at, default 100,000
	// Bytes counts bytes read from the git directory, inflated from its
	// objects (along delta chains too) and built from its index; default
	// 1 GB.
	Bytes int64
}

// Errors. ErrNoRepository and ErrNoChange say there is nothing to date;
// ErrBudget that the reading gave up, over a bound of Limits (past its
// deadline it also wraps context.DeadlineExceeded), so the answer is not
// known.
var (
	ErrNoRepository = errors.New("not in a git repository")
	ErrNoChange     = errors.New("no commit touches the folders")
	ErrBudget       = errors.New("gave up: the history is larger than the budget")
)

// Object size caps: no real commit is a megabyte, no real folder's tree 4
// MB (100,000 entries); larger ones are refused from the sizes they
// declare, before anything is inflated (objectStore).
const (
	maxCommitSize = 1 << 20
	maxTreeSize   = 4 << 20
)

// LastChange finds the newest commit reachable from HEAD that changed any
// of dirs (folders relative to project), following git log's default
// history simplification: a commit whose folders equal one parent's is
// skipped in favour of that parent.
func LastChange(ctx context.Context, project string, dirs []string, lim Limits) (Change, error) {
	r, err := Open(ctx, project, lim)
	if err != nil {
		return Change{}, err
	}
	defer r.Close()
	return r.LastChange(dirs, nil)
}

// LastChange is the package's LastChange on an open repository. The files
// that commit added under the folders with (relative to the project) are
// listed in Change.With: what was committed together with the change.
func (r *Repository) LastChange(dirs, with []string) (Change, error) {
	paths := r.repoPaths(dirs)
	if len(paths) == 0 {
		return Change{}, ErrNoChange
	}
	w := &walker{st: r.r, b: r.b, paths: paths, maxCommits: r.lim.Commits}
	c, first, shallow, err := w.last()
	if err != nil {
		return Change{}, err
	}
	out := Change{Time: c.Committer.When, Commit: c.Hash.String(), Shallow: shallow}
	if first != "" {
		out.Path = filepath.Join(r.workTree, filepath.FromSlash(first))
	}
	if out.With, err = w.added(c, r.repoPaths(with)); err != nil {
		return Change{}, err
	}
	for i, p := range out.With {
		out.With[i] = filepath.Join(r.workTree, filepath.FromSlash(p))
	}
	return out, nil
}

// WithDefaults is lim with each bound it leaves unset at its default.
func (lim Limits) WithDefaults() Limits {
	if lim.Timeout <= 0 {
		lim.Timeout = 5 * time.Second
	}
	if lim.Commits <= 0 {
		lim.Commits = 100_000
	}
	if lim.Bytes <= 0 {
		lim.Bytes = 1 << 30
	}
	return lim
}

// A Finder finds the repositories of many projects (a monorepo's) as find
// does, remembering each folder above a project it saw without .git, so
// that the projects below it do not look there again. It is for one
// moment of the disk (a workspace snapshot); a nil *Finder remembers
// nothing. It is safe for concurrent use.
type Finder struct {
	mu   sync.Mutex
	none map[string]bool
	// listed, when set, holds listings of that moment of the disk: a
	// folder listed without .git is passed without a look.
	listed vfs.ListingHolder
}

// NewFinder returns an empty Finder.
func NewFinder() *Finder { return &Finder{none: map[string]bool{}} }

// NewFinderListed returns an empty Finder that takes a folder the listings
// of listed (the snapshot's disk cache) show without .git for one without
// it, with no system call: a monorepo's packages, listed by the walk that
// found their charters, are not looked at again one by one.
func NewFinderListed(listed vfs.ListingHolder) *Finder {
	return &Finder{none: map[string]bool{}, listed: listed}
}

// listedWithout reports whether f's listings show dir without .git.
func (f *Finder) listedWithout(dir string) bool {
	if f == nil || f.listed == nil {
		return false
	}
	has, known := f.listed.Holds(dir, ".git")
	return known && !has
}

func (f *Finder) seenWithout(dir string) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.none[dir]
}

func (f *Finder) without(dir string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	f.none[dir] = true
	f.mu.Unlock()
}

// find locates the repository of project the way git does for a work tree:
// the nearest folder at or above project holding .git — a folder, or a
// "gitdir:" file pointing at one (ownGitDir says which of those count). A
// folder that merely looks like a bare repository (HEAD, objects/, refs/
// at its top, which survives a clone) is never taken for one, nor is a
// .git that is a symbolic link: it would date these sources from another
// repository. A folder f saw without .git is not looked at again.
func (f *Finder) find(project string) (workTree, gitDir string, err error) {
	for dir := project; ; {
		// A folder seen without .git for another project is passed: on to
		// its parent, with no look (nor path) made for it.
		if dir == project || !f.seenWithout(dir) {
			var p string
			var fi fs.FileInfo
			err := fs.ErrNotExist
			if !f.listedWithout(dir) {
				p = vfs.Join(dir, ".git")
				fi, err = os.Lstat(p)
			}
			switch {
			case err != nil:
				if dir != project {
					// (The project's own folder is not kept: a monorepo
					// has as many as packages, each asked about once.)
					f.without(dir)
				}
			case fi.IsDir():
				return dir, p, nil
			case fi.Mode().IsRegular():
				target, err := gitDirFile(p)
				if err != nil {
					return "", "", err
				}
				if err := ownGitDir(dir, p, target); err != nil {
					return "", "", err
				}
				return dir, target, nil
			case fi.Mode()&os.ModeSymlink != 0:
				return "", "", fmt.Errorf("%w: %s is a symbolic link", ErrNoRepository, p)
			default:
				return "", "", fmt.Errorf("%s: %w", p, &vfs.NotRegularError{Mode: fi.Mode()})
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", ErrNoRepository
		}
		dir = parent
	}
}

// ownGitDir accepts the git directory a .git file (dotGit, in workTree)
// names only when it belongs to this work tree: it lies inside the work
// tree; or it is a linked work tree's (git worktree add), whose gitdir file
// names dotGit back; or a submodule's, whose core.worktree names the work
// tree. Anything else is another repository, which a .git file a
// repository ships (gitdir: /home/me/other/.git) must not make us read.
func ownGitDir(workTree, dotGit, target string) error {
	wt, ok := vfs.Resolve(workTree)
	real, ok2 := vfs.Resolve(target)
	if !ok || !ok2 {
		return ErrNoRepository
	}
	if vfs.Within(wt, real) {
		return nil
	}
	if back, err := vfs.ReadFile(filepath.Join(real, "gitdir"), 4096); err == nil {
		if sameFile(relativeTo(real, strings.TrimSpace(string(back))), dotGit) {
			return nil
		}
	}
	if src, err := vfs.ReadFile(filepath.Join(real, "config"), 64<<10); err == nil {
		cfg := gitconfig.New()
		if gitconfig.NewDecoder(bytes.NewReader(src)).Decode(cfg) == nil {
			if w := cfg.Section("core").Option("worktree"); w != "" && sameFile(relativeTo(real, w), workTree) {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %s names %s, a git directory that does not name this work tree back", ErrNoRepository, dotGit, target)
}

// relativeTo is p, resolved against dir when relative.
func relativeTo(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// sameFile reports whether a and b resolve to the same file.
func sameFile(a, b string) bool {
	ra, ok := vfs.Resolve(a)
	rb, ok2 := vfs.Resolve(b)
	return ok && ok2 && ra == rb
}

// gitDirFile reads a .git file ("gitdir: <path>", as in a linked work tree
// or a submodule).
func gitDirFile(p string) (string, error) {
	src, err := vfs.ReadFile(p, 4096)
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(src, []byte("\n"))
	target, ok := strings.CutPrefix(strings.TrimSpace(string(line)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s has no gitdir: line", p)
	}
	return relativeTo(filepath.Dir(p), strings.TrimSpace(target)), nil
}

// repo is a git directory opened for reading: go-git's storage for the
// references and the shallow list (small text files), and objectStore for
// the objects.
type repo struct {
	fs   billy.Filesystem // the git directory (and its common directory)
	b    *budget
	refs *filesystem.Storage
	objs *objectStore
}

// open opens the git directory, with its common directory when it is a
// linked work tree's.
func open(gitDir string, b *budget) (*repo, error) {
	real, ok := vfs.Resolve(gitDir)
	if !ok {
		return nil, ErrNoRepository
	}
	var fsys billy.Filesystem = newSafeFS(real, b)
	objects := filepath.Join(real, "objects")
	if src, err := vfs.ReadFile(filepath.Join(real, "commondir"), 4096); err == nil {
		// A linked work tree's: <common>/worktrees/<name>. A commondir
		// anywhere else would lead to another repository.
		common, ok := vfs.Resolve(relativeTo(real, strings.TrimSpace(string(src))))
		if !ok || !vfs.Within(filepath.Join(common, "worktrees"), real) {
			return nil, fmt.Errorf("%w: %s has a commondir that is not its own", ErrNoRepository, gitDir)
		}
		fsys = dotgit.NewRepositoryFilesystem(fsys, newSafeFS(common, b))
		objects = filepath.Join(common, "objects")
	}
	return &repo{
		fs:   fsys,
		b:    b,
		refs: filesystem.NewStorage(fsys, cache.NewObjectLRU(cache.KiByte)),
		objs: newObjectStore(newSafeFS(objects, b), b),
	}, nil
}

// index reads the entries of the index whose names keep accepts.
func (r *repo) index(keep func(name []byte) bool) ([]indexEntry, error) {
	f, err := r.fs.Open("index")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readIndex(f, r.b, keep)
}

func (r *repo) Close() {
	r.refs.Close()
	r.objs.close()
}

// walker visits commits newest first, as git log does.
type walker struct {
	st         *repo
	b          *budget
	paths      []string
	maxCommits int
	seen       int
	shallow    map[plumbing.Hash]bool // a shallow clone's boundary: no parents
	memo       map[plumbing.Hash][]entry
	trees      map[plumbing.Hash]*object.Tree
	treeBytes  int64
}

func (w *walker) last() (*object.Commit, string, bool, error) {
	c, first, err := w.walk()
	return c, first, err == nil && w.shallow[c.Hash], err
}

// headHash is the commit HEAD names.
func (w *walker) headHash() (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(w.st.refs, plumbing.HEAD)
	if err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.ZeroHash, errNoHead
		}
		if berr := w.b.check(); berr != nil {
			return plumbing.ZeroHash, berr // out of time or budget: not a broken HEAD
		}
		return plumbing.ZeroHash, fmt.Errorf("%w: HEAD: %w", ErrNoRepository, err)
	}
	return ref.Hash(), nil
}

func (w *walker) walk() (*object.Commit, string, error) {
	h, err := w.headHash()
	if err != nil {
		return nil, "", err
	}
	head, err := w.commit(h)
	if err != nil {
		return nil, "", err
	}
	// A shallow clone (CI checkouts of depth 1) ends at its boundary
	// commits, which git log treats as roots.
	w.shallow = map[plumbing.Hash]bool{}
	if hs, err := w.st.refs.Shallow(); err == nil {
		for _, h := range hs {
			w.shallow[h] = true
		}
	}
	queue := &byTime{head}
	visited := map[plumbing.Hash]bool{head.Hash: true}
	for queue.Len() > 0 {
		if err := w.b.check(); err != nil {
			return nil, "", err
		}
		if w.seen++; w.seen > w.maxCommits {
			return nil, "", fmt.Errorf("%w: more than %d commits", ErrBudget, w.maxCommits)
		}
		c := heap.Pop(queue).(*object.Commit)
		own, err := w.folders(c)
		if err != nil {
			return nil, "", err
		}
		var parents []*object.Commit
		sameAs := -1
		parentHashes := c.ParentHashes
		if w.shallow[c.Hash] {
			parentHashes = nil
		}
		for i, h := range parentHashes {
			p, err := w.commit(h)
			if err != nil {
				return nil, "", err
			}
			theirs, err := w.folders(p)
			if err != nil {
				return nil, "", err
			}
			parents = append(parents, p)
			if sameAs < 0 && equal(own, theirs) {
				sameAs = i
			}
		}
		switch {
		case sameAs >= 0:
			// TREESAME to a parent: nothing happened here; follow that
			// parent only, as git log's default simplification does.
			if p := parents[sameAs]; !visited[p.Hash] {
				visited[p.Hash] = true
				heap.Push(queue, p)
			}
		case len(parents) == 0 && isEmpty(own):
			// A root commit without the folders.
		default:
			first := ""
			if len(parents) <= 1 { // git log shows no files for a merge
				var base []entry
				if len(parents) == 1 {
					base, _ = w.folders(parents[0])
				}
				if first, err = w.firstChange(own, base); err != nil {
					return nil, "", err
				}
			}
			return c, first, nil
		}
	}
	return nil, "", ErrNoChange
}

// commit reads a commit, refusing one too large to be real.
func (w *walker) commit(h plumbing.Hash) (*object.Commit, error) {
	o, err := w.object(h, plumbing.CommitObject, maxCommitSize)
	if err != nil {
		return nil, err
	}
	c, err := object.DecodeCommit(nil, o)
	return c, w.objectErr(err)
}

// tree reads a tree, refusing one too large to be real. Up to 16 MB of
// trees are kept decoded: looking files up one by one reads the same
// folders again.
func (w *walker) tree(h plumbing.Hash) (*object.Tree, error) {
	if t, ok := w.trees[h]; ok {
		return t, nil
	}
	o, err := w.object(h, plumbing.TreeObject, maxTreeSize)
	if err != nil {
		return nil, err
	}
	t, err := object.DecodeTree(nil, o)
	if err != nil {
		return nil, w.objectErr(err)
	}
	if w.trees == nil || w.treeBytes+o.Size() > 16<<20 {
		w.trees, w.treeBytes = map[plumbing.Hash]*object.Tree{}, 0
	}
	w.trees[h] = t
	w.treeBytes += o.Size()
	return t, nil
}

// object reads an object of type typ and at most max bytes.
func (w *walker) object(h plumbing.Hash, typ plumbing.ObjectType, max int64) (plumbing.EncodedObject, error) {
	data, err := w.st.objs.read(h, typ, max)
	if err != nil {
		return nil, w.objectErr(err)
	}
	o := &plumbing.MemoryObject{}
	o.SetType(typ)
	o.Write(data)
	return o, nil
}

// objectErr keeps a budget error recognisable: go-git wraps read errors.
func (w *walker) objectErr(err error) error {
	if err == nil {
		return nil
	}
	if berr := w.b.check(); berr != nil {
		return berr
	}
	return err
}

// folders is the object id at each folder path of c's tree (zero when the
// path is absent): two commits with equal folders are TREESAME.
func (w *walker) folders(c *object.Commit) ([]entry, error) {
	if out, ok := w.memo[c.Hash]; ok {
		return out, nil // a parent looked at once already, now walked
	}
	out := make([]entry, len(w.paths))
	for i, p := range w.paths {
		e, err := w.lookup(c.TreeHash, p)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	if w.memo == nil {
		w.memo = map[plumbing.Hash][]entry{}
	}
	w.memo[c.Hash] = out
	return out, nil
}

// lookup walks path's components from the tree root ("." is the root);
// zero when absent.
func (w *walker) lookup(root plumbing.Hash, p string) (entry, error) {
	if p == "." {
		return entry{root, filemode.Dir}, nil
	}
	h := root
	names := strings.Split(p, "/")
	for i, name := range names {
		t, err := w.tree(h)
		if err != nil {
			return entry{}, err
		}
		var e *object.TreeEntry
		for j := range t.Entries {
			if t.Entries[j].Name == name {
				e = &t.Entries[j]
				break
			}
		}
		switch {
		case e == nil:
			return entry{}, nil
		case i == len(names)-1:
			return entry{e.Hash, e.Mode}, nil
		case e.Mode != filemode.Dir:
			return entry{}, nil // a file where a folder is named
		}
		h = e.Hash
	}
	return entry{}, nil
}

// added lists the files commit c added under paths (repository paths):
// absent from its parent. Nothing for a merge or a shallow clone's last
// commit, whose parents are not known.
func (w *walker) added(c *object.Commit, paths []string) ([]string, error) {
	if len(paths) == 0 || len(c.ParentHashes) > 1 || w.shallow[c.Hash] {
		return nil, nil
	}
	var parent *object.Commit
	if len(c.ParentHashes) == 1 {
		var err error
		if parent, err = w.commit(c.ParentHashes[0]); err != nil {
			return nil, err
		}
	}
	d := &differ{w: w}
	for _, p := range paths {
		ours, err := w.lookup(c.TreeHash, p)
		if err != nil {
			return nil, err
		}
		var base entry
		if parent != nil {
			if base, err = w.lookup(parent.TreeHash, p); err != nil {
				return nil, err
			}
		}
		if ours == base {
			continue
		}
		if err := d.diff(relative(p), ours, base); err != nil {
			return nil, err
		}
	}
	return d.newFiles, nil
}

// firstChange is the first path, in git's order, that a commit (its
// folders: ours) changed against its parent (base; nil for a root commit),
// as --name-only lists them: an exact rename counts as its new name only.
func (w *walker) firstChange(ours, base []entry) (string, error) {
	d := &differ{w: w}
	for i, p := range w.paths {
		var b entry
		if base != nil {
			b = base[i]
		}
		if ours[i] == b {
			continue
		}
		if err := d.diff(relative(p), ours[i], b); err != nil {
			return "", err
		}
	}
	var names []string
	for name, deleted := range d.deleted {
		if !d.added[deleted] {
			names = append(names, name) // not a rename
		}
	}
	names = append(names, d.changed...)
	if len(names) == 0 {
		return "", nil
	}
	sort.Strings(names)
	return names[0], nil
}

// relative is a repository path as the prefix of the paths below it: ""
// for the top (".").
func relative(p string) string {
	if p == "." {
		return ""
	}
	return p
}

// differ collects the file changes between two versions of a folder.
type differ struct {
	w        *walker
	newFiles []string                 // added files
	changed  []string                 // added or modified files
	added    map[plumbing.Hash]bool   // content of added files
	deleted  map[string]plumbing.Hash // deleted files and their content
}

// diff compares the entry at prefix in two versions; either may be absent
// (zero) or a file rather than a folder.
func (d *differ) diff(prefix string, ours, base entry) error {
	mine, err := d.list(ours)
	if err != nil {
		return err
	}
	theirs, err := d.list(base)
	if err != nil {
		return err
	}
	switch {
	case mine == nil && theirs == nil: // two files
		if ours.hash.IsZero() {
			d.remove(prefix, base.hash)
		} else {
			d.add(prefix, ours.hash, base.hash.IsZero())
		}
		return nil
	case mine == nil && !ours.hash.IsZero(): // a file replaced a folder
		d.add(prefix, ours.hash, true)
	case theirs == nil && !base.hash.IsZero(): // a folder replaced a file
		d.remove(prefix, base.hash)
	}
	names := map[string]bool{}
	for n := range mine {
		names[n] = true
	}
	for n := range theirs {
		names[n] = true
	}
	for n := range names {
		m, t := mine[n], theirs[n]
		if m == t {
			continue
		}
		if m.hash == t.hash { // the mode alone changed: the file changed
			d.add(path.Join(prefix, n), m.hash, false)
			continue
		}
		if err := d.diff(path.Join(prefix, n), m, t); err != nil {
			return err
		}
	}
	return nil
}

func (d *differ) add(name string, h plumbing.Hash, isNew bool) {
	d.changed = append(d.changed, name)
	if isNew {
		d.newFiles = append(d.newFiles, name)
		if d.added == nil {
			d.added = map[plumbing.Hash]bool{}
		}
		d.added[h] = true
	}
}

func (d *differ) remove(name string, h plumbing.Hash) {
	if d.deleted == nil {
		d.deleted = map[string]plumbing.Hash{}
	}
	d.deleted[name] = h
}

// list maps a folder's entry names to their ids and modes; nil for an
// absent entry or a file (a submodule's commit is never looked up).
func (d *differ) list(e entry) (map[string]entry, error) {
	if e.hash.IsZero() || e.mode != filemode.Dir {
		return nil, nil
	}
	t, err := d.w.tree(e.hash)
	if err != nil {
		return nil, err
	}
	es := t.Entries
	out := make(map[string]entry, len(es))
	for _, e := range es {
		out[e.Name] = entry{e.Hash, e.Mode}
	}
	return out, nil
}

type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

func equal(a, b []entry) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func isEmpty(es []entry) bool {
	for _, e := range es {
		if !e.hash.IsZero() {
			return false
		}
	}
	return true
}

// byTime is a max-heap of commits by committer time: git log's order.
type byTime []*object.Commit

func (q byTime) Len() int           { return len(q) }
func (q byTime) Less(i, j int) bool { return q[i].Committer.When.After(q[j].Committer.When) }
func (q byTime) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *byTime) Push(x any)        { *q = append(*q, x.(*object.Commit)) }
func (q *byTime) Pop() any {
	old := *q
	last := old[len(old)-1]
	*q = old[:len(old)-1]
	return last
}
