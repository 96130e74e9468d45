package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Within reports whether path is root or lies below it once the symbolic
// links of both are resolved. It is the one containment rule of the code
// base: the server bounds its reads and writes by the workspace folders
// with it, every writer bounds its writes by its folder (CheckWrite,
// OpenWrite), the CLI bounds its reads by the projects it was given, and
// the freshness clock bounds its source folders by the project. A path that
// does not exist yet (a file about to be created) is judged by its nearest
// existing ancestor; a link that cannot be resolved (dangling, looping) is
// outside everything.
func Within(root, path string) bool {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return false
	}
	if plainBelow(root, path, lstatPlain) {
		return true
	}
	real, ok := Resolve(path)
	if !ok {
		return false
	}
	realRoot, ok := Resolve(root)
	if !ok {
		return false
	}
	return Below(realRoot, real)
}

// WithinListed is Within(root, path) answered from fsys's listings when
// fsys holds them (ListingHolder: the workspace's disk cache) and they say
// path lies below root as written with no symbolic link on the way
// (plainBelow). Anything else — a link on the way, a name not listed, an
// fsys that holds no listings — is Within's to answer.
func WithinListed(fsys FS, root, path string) bool {
	if _, holds := fsys.(ListingHolder); holds && filepath.IsAbs(root) && filepath.IsAbs(path) && plainBelow(root, path, listedPlain(fsys)) {
		return true
	}
	return Within(root, path)
}

// plainBelow reports whether path lies below root as written and every
// name on the way, path's own included, is there and is no symbolic link
// (plain says so of one path): then path's links resolve as root's do, and
// it is Within root without resolving either (Within resolves both, a
// system call per name of each from the top; the freshness clock asks it
// of every project's source folders).
func plainBelow(root, path string, plain func(p string) bool) bool {
	root, path = filepath.Clean(root), filepath.Clean(path)
	if root == path || !Below(root, path) {
		return false
	}
	for p := path; p != root; p = filepath.Dir(p) {
		if !plain(p) {
			return false
		}
	}
	return true
}

// lstatPlain says of p, from the disk, that it is there and no link.
func lstatPlain(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink == 0
}

// listedPlain says of p, from its folder's listing in fsys, that it is
// there and no link.
func listedPlain(fsys FS) func(p string) bool {
	return func(p string) bool {
		name := filepath.Base(p)
		entries, err := fsys.ReadDir(filepath.Dir(p))
		i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name })
		return err == nil && i >= 0 && entries[i].Type()&fs.ModeSymlink == 0
	}
}

// Clean is filepath.Clean, with no work for a path that is clean already
// (most are: they come from listings and joins): that one is returned as
// it is. The workspace cleans every path it is asked about.
func Clean(p string) string {
	if isClean(p) {
		return p
	}
	return filepath.Clean(p)
}

// Dir is filepath.Dir, with no work for a path that is clean already.
func Dir(p string) string {
	if i := strings.LastIndexByte(p, filepath.Separator); i > 0 && isClean(p) {
		return p[:i]
	}
	return filepath.Dir(p)
}

// Join is filepath.Join(dir, name), with no pass to clean the result when
// dir is clean already and name is one element (a listing's name, or a
// constant like "work"): that one is dir + "/" + name. The walk, the
// loaders and the listings of charter folders join every name they see.
func Join(dir, name string) string {
	if name == "" || name == "." || name == ".." || strings.IndexByte(name, '/') >= 0 || !isClean(dir) {
		return filepath.Join(dir, name)
	}
	if dir == "/" {
		return dir + name
	}
	return dir + "/" + name
}

// isClean reports whether p is an absolute path that filepath.Clean
// returns as it is, on a system whose separator is '/': no empty, "." or
// ".." element, no separator at the end. (Anything else is Clean's to
// say.)
func isClean(p string) bool {
	if filepath.Separator != '/' || p == "" || p[0] != '/' {
		return false
	}
	n := len(p)
	if n > 1 && p[n-1] == '/' {
		return false
	}
	for i := 1; i < n; i++ {
		if p[i-1] != '/' {
			continue
		}
		// An element starts at i: not empty, not "." or "..".
		switch {
		case p[i] == '/':
			return false
		case p[i] == '.' && (i+1 == n || p[i+1] == '/'):
			return false
		case p[i] == '.' && p[i+1] == '.' && (i+2 == n || p[i+2] == '/'):
			return false
		}
	}
	return true
}

// belowClean is Below for paths already clean (absClean's): a prefix.
func belowClean(dir, p string) bool {
	if filepath.Separator != '/' {
		return belowRel(dir, p) // volumes: the relative path says
	}
	return p == dir || strings.HasPrefix(p, dir) && (dir == "/" || p[len(dir)] == '/')
}

// WithinAny reports whether path is Within one of roots.
func WithinAny(path string, roots []string) bool {
	for _, r := range roots {
		if Within(r, path) {
			return true
		}
	}
	return false
}

// Below reports whether the clean path p is dir or lies below it, as
// written (no links resolved).
func Below(dir, p string) bool {
	if isClean(dir) && isClean(p) {
		return belowClean(dir, p) // absolute and clean: a prefix, with no Rel to allocate
	}
	return belowRel(dir, p)
}

// belowRel is Below for any clean paths, relative ones too: by their
// relative path.
func belowRel(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// Resolve evaluates the symbolic links of the absolute path; for a path
// that does not exist it resolves the longest existing prefix and appends
// the rest. ok is false when an existing part cannot be resolved.
func Resolve(path string) (string, bool) {
	path = filepath.Clean(path)
	var rest []string
	for p := path; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{real}, rest...)...), true
		}
		if _, err := os.Lstat(p); err == nil {
			// Exists but cannot be resolved (a dangling or looping link):
			// refuse to guess where it points.
			return "", false
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path, true
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// Confined is a file system that reads nothing outside its roots: reading,
// listing or stating a path that is not Within one of them fails with
// ErrOutside. The server reads the disk through one bounded by its
// workspace folders, so no feature (a command's absolute URI, a charter
// folder linked out of the workspace) can make it read elsewhere.
//
// Answers are remembered until Forget (call it when the roots change or
// files change on disk: a folder may have become a link); a file that is
// itself a link is judged by where it leads.
type Confined struct {
	FS    FS
	Roots func() []string

	mu     sync.Mutex
	known  map[string]bool     // answers by path, until Forget
	opened map[string]*os.Root // roots opened for reading, until Forget
	fds    map[string]*os.File // roots opened for the fast path (beneath_linux.go), until Forget
}

// ErrOutside is what an *OutsideError is (errors.Is): a path a Confined
// file system refuses to read, or a writer refuses to write.
var ErrOutside = errors.New("outside the workspace")

func (c *Confined) ReadFile(name string) ([]byte, error) {
	if data, err, ok := c.readFast(name); ok {
		return data, err
	}
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: c.outside(name)}
	}
	if c.FS != OS {
		return c.FS.ReadFile(name)
	}
	var data []byte
	err := c.inRoot(name, func(r *os.Root, rel string) (err error) {
		data, err = readRegular(name, MaxFileSize,
			func() (fs.FileInfo, error) { return r.Stat(rel) },
			func() (*os.File, error) { return r.OpenFile(rel, readFlags, 0) })
		return err
	})
	return data, err
}

func (c *Confined) Stat(name string) (fs.FileInfo, error) {
	if fi, err, ok := c.statFast(name); ok {
		return fi, err
	}
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: c.outside(name)}
	}
	if c.FS != OS {
		return c.FS.Stat(name)
	}
	var fi fs.FileInfo
	err := c.inRoot(name, func(r *os.Root, rel string) (err error) {
		fi, err = r.Stat(rel)
		return withPath(err, "stat", name)
	})
	return fi, err
}

func (c *Confined) ReadDir(name string) ([]fs.DirEntry, error) {
	if es, err, ok := c.readDirFast(name); ok {
		return es, err
	}
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: c.outside(name)}
	}
	if c.FS != OS {
		return c.FS.ReadDir(name)
	}
	var es []fs.DirEntry
	err := c.inRoot(name, func(r *os.Root, rel string) error {
		f, err := r.Open(rel)
		if err != nil {
			return withPath(err, "open", name)
		}
		defer f.Close()
		es, err = f.ReadDir(-1)
		SortByName(es)
		return withPath(err, "readdir", name)
	})
	return es, err
}

// inRoot runs op, for a read on the real disk, under an os.Root opened at
// a root that holds name and with name's path under it. op resolves that
// path one component at a time (openat) and refuses any link that leads
// out of the root, so a folder swapped for a link after Allows answered
// (answers are remembered until Forget) cannot carry the read outside:
// Allows gives the answer, the os.Root the guarantee. The path is tried as
// written first, then, if that fails otherwise than by not existing (an
// os.Root refuses absolute links, even those that stay inside), with its
// links resolved.
func (c *Confined) inRoot(name string, op func(r *os.Root, rel string) error) error {
	name = absClean(name)
	for _, root := range c.Roots() {
		if root = absClean(root); Below(root, name) {
			if r, err := c.root(root); err == nil {
				rel, _ := filepath.Rel(root, name)
				if err := op(r, rel); err == nil || errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			break
		}
	}
	if real, ok := Resolve(name); ok {
		for _, root := range c.Roots() {
			if realRoot, ok := Resolve(root); ok && Below(realRoot, real) {
				r, err := c.root(realRoot)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(realRoot, real)
				return op(r, rel)
			}
		}
	}
	return &fs.PathError{Op: "open", Path: name, Err: c.outside(name)}
}

// root is the os.Root opened at dir, kept until Forget.
func (c *Confined) root(dir string) (*os.Root, error) {
	c.mu.Lock()
	r := c.opened[dir]
	c.mu.Unlock()
	if r != nil {
		return r, nil
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if had := c.opened[dir]; had != nil {
		r.Close()
		return had, nil
	}
	if c.opened == nil || len(c.opened) > 64 {
		c.opened = map[string]*os.Root{} // bounded; dropped ones close when collected
	}
	c.opened[dir] = r
	return r, nil
}

// rootDir is the root dir opened as a file, for the fast path's openat2,
// kept until Forget.
func (c *Confined) rootDir(dir string) (*os.File, error) {
	c.mu.Lock()
	f := c.fds[dir]
	c.mu.Unlock()
	if f != nil {
		return f, nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if had := c.fds[dir]; had != nil {
		f.Close()
		return had, nil
	}
	if c.fds == nil || len(c.fds) > 64 {
		c.closeFDs()
		c.fds = map[string]*os.File{}
	}
	c.fds[dir] = f
	return f, nil
}

// closeFDs closes the roots opened for the fast path (one still in use
// closes when its use ends); c.mu is held.
func (c *Confined) closeFDs() {
	for _, f := range c.fds {
		f.Close()
	}
	c.fds = nil
}

// withPath puts name, as the caller gave it, in err's *fs.PathError.
func withPath(err error, op, name string) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fs.PathError{Op: op, Path: name, Err: pe.Err}
	}
	return err
}

// outside explains why name is refused, naming the link that leads out
// when one does (under the root that holds name as written).
func (c *Confined) outside(name string) error {
	name = absClean(name)
	roots := c.Roots()
	for _, r := range roots {
		if Below(filepath.Clean(r), filepath.Clean(name)) {
			return outsideError(r, name)
		}
	}
	root := ""
	if len(roots) == 1 {
		root = roots[0]
	}
	return &OutsideError{Path: name, Root: root}
}

// Allows reports whether name may be read.
func (c *Confined) Allows(name string) bool {
	name = absClean(name)
	if ok, known := c.lookup(name); known {
		return ok
	}
	var ok bool
	dir := filepath.Dir(name)
	inDir, known := c.lookup(dir)
	if !known {
		inDir = WithinAny(dir, c.Roots())
		c.store(dir, inDir)
	}
	switch fi, err := os.Lstat(name); {
	case !inDir:
		ok = WithinAny(name, c.Roots()) // a root itself
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		ok = WithinAny(name, c.Roots()) // a link: where it leads
	default:
		ok = true
	}
	c.store(name, ok)
	return ok
}

func (c *Confined) lookup(path string) (ok, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ok, known = c.known[path]
	return ok, known
}

func (c *Confined) store(path string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil || len(c.known) > 1<<14 {
		c.known = map[string]bool{} // bounded: start over
	}
	c.known[path] = ok
}

// Forget drops every remembered answer, and the opened roots (a read
// still using one finishes; each is closed when collected).
func (c *Confined) Forget() {
	c.mu.Lock()
	c.known = nil
	c.opened = nil
	c.closeFDs()
	c.mu.Unlock()
}

// OutsideError is a path refused because it lies outside the folder it
// must stay in: as written (a ".." too many, an absolute path elsewhere), or
// because a symbolic link on the way leads out.
type OutsideError struct {
	Path string // the path refused
	Root string // the folder it must stay in ("" when there are several)
	// Link is the symbolic link on the way (or Path itself) that leads
	// out, Target what it points to; both "" when Path is outside as
	// written.
	Link, Target string
}

func (e *OutsideError) Error() string {
	root := "the workspace"
	if e.Root != "" {
		root = e.Root
	}
	switch {
	case e.Link == "":
		return fmt.Sprintf("%s is outside %s", e.Path, root)
	case e.Link == e.Path:
		return fmt.Sprintf("%s is a symbolic link to %s, outside %s", e.Path, e.Target, root)
	}
	return fmt.Sprintf("%s is outside %s: %s is a symbolic link to %s", e.Path, root, e.Link, e.Target)
}

func (e *OutsideError) Is(target error) bool { return target == ErrOutside }

// LeadsOut reports whether err refuses a path because a symbolic link
// inside the roots leads out of them: the path is there, but not to be read
// (unlike a path outside the roots as written, which is not looked at).
func LeadsOut(err error) bool {
	var oe *OutsideError
	return errors.As(err, &oe) && oe.Link != ""
}

// CheckWrite is the containment check of every writer (record, check --fix,
// interview --apply, migrate --write, the server's record action): path
// must lie in root as written (no ".." out of it) and once the symbolic
// links on the way are followed (Within). Links that stay inside root are
// fine. The error is an *OutsideError naming the link that leads out.
// Writers do not call it alone: OpenWrite checks and then writes through
// an os.Root, so nothing swapped in after the check can move the write.
func CheckWrite(root, path string) error {
	root, path, err := absBoth(root, path)
	if err != nil {
		return err
	}
	if !Below(root, path) || !Within(root, path) {
		return outsideError(root, path)
	}
	return nil
}

// OpenWrite is CheckWrite, then an os.Root opened at root's real location
// and the name of path under it with the folders on the way resolved; the
// last component is left as written (a link there is the writer's to
// refuse). Writing through the returned root resolves the name one
// component at a time (openat) and refuses any link that leads out of the
// root, so a folder swapped for a link between the check and the write
// cannot carry the write elsewhere: the check gives the clear message, the
// os.Root the guarantee. The caller closes the root.
func OpenWrite(root, path string) (*os.Root, string, error) {
	root, path, err := absBoth(root, path)
	if err != nil {
		return nil, "", err
	}
	if err := CheckWrite(root, path); err != nil {
		return nil, "", err
	}
	realRoot, ok := Resolve(root)
	if !ok {
		return nil, "", outsideError(root, path)
	}
	// A root not made yet (the project of a charter about to be created)
	// is opened at its nearest existing ancestor.
	for {
		if _, err := os.Lstat(realRoot); err == nil || filepath.Dir(realRoot) == realRoot {
			break
		}
		realRoot = filepath.Dir(realRoot)
	}
	name := "."
	if path != root {
		realDir, ok := Resolve(filepath.Dir(path))
		if !ok {
			return nil, "", outsideError(root, path)
		}
		rel, err := filepath.Rel(realRoot, realDir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, "", outsideError(root, path)
		}
		name = filepath.Join(rel, filepath.Base(path))
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return nil, "", err
	}
	return r, name, nil
}

// absClean is name made absolute (relative to the working folder) and
// clean.
func absClean(name string) string {
	if isClean(name) {
		return name // absolute and clean: what Abs would return
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

func absBoth(root, path string) (string, string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", "", err
	}
	path, err = filepath.Abs(path)
	return root, path, err
}

// outsideError says why path is not inside root: the first symbolic link
// between them, as written, that leads out of root, if there is one.
func outsideError(root, path string) error {
	e := &OutsideError{Path: path, Root: root}
	root, path = filepath.Clean(root), filepath.Clean(path)
	if !Below(root, path) {
		return e
	}
	if link := firstLink(root, path, func(p string) bool { return !Within(root, p) }); link != "" {
		e.Link = link
		e.Target, _ = os.Readlink(link)
	}
	return e
}
