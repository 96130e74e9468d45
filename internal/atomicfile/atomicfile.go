// Package atomicfile writes files so that readers see either the old content
// or the new, never a half-written file: write a temporary file beside the
// target, sync it, then rename (or, for a new file, link) it into place and
// sync the folder. A process killed at any point leaves the old state or
// the new one — never an empty or partial file — and a write that fails
// leaves no temporary file behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically. The parent directory must exist.
// perm applies to a new file; an existing file keeps its mode. A symbolic
// link at path is refused with a *LinkError: the rename would replace the
// link with a file, cutting off what it pointed to (and writing through it
// could land outside the folder the caller checked).
func Write(path string, data []byte, perm os.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return &LinkError{Path: path, Target: target}
	}
	if fi, statErr := os.Stat(path); statErr == nil {
		perm = fi.Mode().Perm()
	}
	return place(path, data, perm, rename)
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
func Create(path string, data []byte, perm os.FileMode) error {
	return place(path, data, perm, link)
}

// The last step of a write, from the synced temporary file to path.
var (
	rename = os.Rename
	link   = linkOrRename
)

// linkOrRename gives the temporary file its final name only if that name
// is free.
func linkOrRename(tmp, path string) error {
	err := os.Link(tmp, path)
	var le *os.LinkError
	if errors.As(err, &le) && !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrPermission) {
		// No hard links here (some network and FAT file systems): a
		// rename after a check, the caller's lock keeping others off.
		if _, statErr := os.Lstat(path); statErr == nil {
			return &os.LinkError{Op: "link", Old: tmp, New: path, Err: fs.ErrExist}
		}
		return os.Rename(tmp, path)
	}
	return err
}

func place(path string, data []byte, perm os.FileMode, final func(tmp, path string) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	// Whatever happens, the temporary name goes: after a rename it is
	// already gone, after a link it is a second name for the new file.
	defer func() {
		if tmp != nil {
			tmp.Close()
		}
		os.Remove(name)
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
	if err = final(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename or link in dir durable. Not every system can sync
// a folder; the write is done either way.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
