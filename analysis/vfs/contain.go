package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Within reports whether path is root or lies below it once the symbolic
// links of both are resolved. It is the one containment rule of the code
// base: the server bounds its reads and writes by the workspace folders
// with it, record bounds its writes by the charter folder, the CLI bounds
// --charter by the project, and the freshness clock bounds its source
// folders by the project. A path that does not exist yet (a file about to
// be created) is judged by its nearest existing ancestor; a link that
// cannot be resolved (dangling, looping) is outside everything.
func Within(root, path string) bool {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return false
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

	mu    sync.Mutex
	known map[string]bool // answers by path, until Forget
}

// ErrOutside is why a Confined file system refuses a path.
var ErrOutside = errors.New("outside the workspace folders; not read")

func (c *Confined) ReadFile(name string) ([]byte, error) {
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrOutside}
	}
	return c.FS.ReadFile(name)
}

func (c *Confined) Stat(name string) (fs.FileInfo, error) {
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: ErrOutside}
	}
	return c.FS.Stat(name)
}

func (c *Confined) ReadDir(name string) ([]fs.DirEntry, error) {
	if !c.Allows(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: ErrOutside}
	}
	return c.FS.ReadDir(name)
}

// Allows reports whether name may be read.
func (c *Confined) Allows(name string) bool {
	name = filepath.Clean(name)
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

// Forget drops every remembered answer.
func (c *Confined) Forget() {
	c.mu.Lock()
	c.known = nil
	c.mu.Unlock()
}
