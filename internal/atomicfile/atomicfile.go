// Package atomicfile is how charter-lsp writes files: inside a folder it
// must not leave, and so that readers see either the old content or the
// new, never a half-written file.
//
// Every write names its folder (In): the path is checked against it
// (vfs.CheckWrite: no ".." out of it, no symbolic link on the way that
// leads out) and the write is carried out through an os.Root opened at the
// folder, which resolves each name one component at a time and refuses a
// link that leads out — so a folder swapped for a link after the check
// cannot carry the write elsewhere.
//
// A write goes to a temporary file beside the target, is synced, then
// renamed (or, for a new file, linked) into place, and the folder is
// synced. A process killed at any point leaves the old state or the new
// one — never an empty or partial file — and a write that fails leaves no
// temporary file behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Dir is a folder that writes stay in.
type Dir struct {
	root string
}

// In returns the folder root for writing in: every path given to its
// methods must lie inside it.
func In(root string) Dir { return Dir{root: root} }

// checked runs after the containment check, before the write; tests swap a
// folder for a link there.
var checked = func() {}

// open checks path against the folder and opens the folder for the write.
func (d Dir) open(path string) (*os.Root, string, error) {
	r, name, err := vfs.OpenWrite(d.root, path)
	checked()
	if err != nil {
		var oe *vfs.OutsideError
		if errors.As(err, &oe) {
			return nil, "", fmt.Errorf("refusing to write: %w", err)
		}
		return nil, "", fmt.Errorf("write %s: %w", path, err)
	}
	return r, name, nil
}

// Write replaces path with data atomically. The parent folder must exist.
// perm applies to a new file; an existing file keeps its mode. A symbolic
// link at path is refused with a *LinkError: the rename would replace the
// link with a file, cutting off what it pointed to.
func (d Dir) Write(path string, data []byte, perm os.FileMode) error {
	return d.at(path, func(r *os.Root, name string) error {
		if fi, err := r.Lstat(name); err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, _ := r.Readlink(name)
				return &LinkError{Path: path, Target: target}
			}
			perm = fi.Mode().Perm()
		}
		return place(r, path, name, data, perm, rename)
	})
}

// LinkError is Write refusing to replace a symbolic link.
type LinkError struct {
	Path, Target string
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s; it was left as it is: run on the file it points to instead", e.Path, e.Target)
}

// Create writes a new file at path atomically, failing with fs.ErrExist if
// anything is there already (as O_EXCL would): the content is complete
// before the name appears.
func (d Dir) Create(path string, data []byte, perm os.FileMode) error {
	return d.at(path, func(r *os.Root, name string) error {
		return place(r, path, name, data, perm, link)
	})
}

// MkdirAll creates the folder path and its missing parents inside the
// folder, and returns those it created, outermost first (for the caller to
// remove if what it writes next fails).
func (d Dir) MkdirAll(path string, perm os.FileMode) (created []string, err error) {
	err = d.at(path, func(r *os.Root, name string) error {
		var missing []string // names under r, innermost first
		for q := name; q != "." && q != string(filepath.Separator); q = filepath.Dir(q) {
			if _, err := r.Lstat(q); err == nil {
				break
			}
			missing = append(missing, q)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			err := r.Mkdir(missing[i], perm)
			if errors.Is(err, fs.ErrExist) {
				continue // made meanwhile by someone else: not ours to remove
			}
			if err != nil {
				return err
			}
			// As the caller wrote it: path less the parts not yet made.
			created = append(created, filepath.Join(path, relUp(name, missing[i])))
		}
		return nil
	})
	return created, err
}

// relUp is the ".." path from name up to its ancestor anc ("." when equal).
func relUp(name, anc string) string {
	rel, _ := filepath.Rel(name, anc)
	return rel
}

// Mkdir creates the folder path, failing with fs.ErrExist if anything is
// there already.
func (d Dir) Mkdir(path string, perm os.FileMode) error {
	return d.at(path, func(r *os.Root, name string) error { return r.Mkdir(name, perm) })
}

// Remove removes the file or empty folder path.
func (d Dir) Remove(path string) error {
	return d.at(path, (*os.Root).Remove)
}

// RemoveAll removes path and what it holds.
func (d Dir) RemoveAll(path string) error {
	return d.at(path, (*os.Root).RemoveAll)
}

// Chtimes sets path's access and modification times to t.
func (d Dir) Chtimes(path string, t time.Time) error {
	return d.at(path, func(r *os.Root, name string) error { return r.Chtimes(name, t, t) })
}

// at runs op on path's name under the folder, once checked.
func (d Dir) at(path string, op func(r *os.Root, name string) error) error {
	r, name, err := d.open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return op(r, name)
}

// The last step of a write, from the synced temporary file to name.
var (
	rename = (*os.Root).Rename
	link   = linkOrRename
)

// linkOrRename gives the temporary file its final name only if that name
// is free.
func linkOrRename(r *os.Root, tmp, name string) error {
	err := r.Link(tmp, name)
	var le *os.LinkError
	if errors.As(err, &le) && !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrPermission) {
		// No hard links here (some network and FAT file systems): a
		// rename after a check, the caller's lock keeping others off.
		if _, statErr := r.Lstat(name); statErr == nil {
			return &os.LinkError{Op: "link", Old: tmp, New: name, Err: fs.ErrExist}
		}
		return r.Rename(tmp, name)
	}
	return err
}

// place writes data to a new temporary file beside name in r, then hands
// it to final.
func place(r *os.Root, path, name string, data []byte, perm os.FileMode, final func(r *os.Root, tmp, name string) error) (err error) {
	dir := filepath.Dir(name)
	tmp, tmpName, err := createTemp(r, dir, "."+filepath.Base(name)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Whatever happens, the temporary name goes: after a rename it is
	// already gone, after a link it is a second name for the new file.
	defer func() {
		if tmp != nil {
			tmp.Close()
		}
		r.Remove(tmpName)
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp = nil
	if err = final(r, tmpName, name); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(r, dir)
	return nil
}

// createTemp creates a new file named prefix plus a random suffix in dir
// under r, as os.CreateTemp does in a folder.
func createTemp(r *os.Root, dir, prefix string) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, name, err
	}
}

// syncDir makes a rename or link in dir durable. Not every system can sync
// a folder; the write is done either way.
func syncDir(r *os.Root, dir string) {
	if d, err := r.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
