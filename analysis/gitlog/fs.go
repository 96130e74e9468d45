package gitlog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync/atomic"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// errReadOnly refuses every write: reading history writes nothing.
var errReadOnly = errors.New("gitlog: read-only")

// budget bounds all the reading one LastChange does: a deadline and a
// number of bytes — read from the git directory, and inflated from its
// objects or built from its index — checked on every open and read, and
// before an object is inflated, so no repository (a huge pack, a delta
// bomb, a packed-refs of a gigabyte) can make it run on.
type budget struct {
	ctx      context.Context
	maxBytes int64
	read     atomic.Int64
}

// spend counts n bytes about to be inflated or built, refusing them when
// they would go over the budget.
func (b *budget) spend(n int64) error {
	if err := b.check(); err != nil {
		return err
	}
	if b.read.Add(n) > b.maxBytes {
		return fmt.Errorf("%w: more than %d MB to read", ErrBudget, b.maxBytes>>20)
	}
	return nil
}

// check refuses once the context is done or its deadline has passed (read
// from the clock: a timer that fires late on a busy machine does not let
// the reading run on), or the bytes are spent.
func (b *budget) check() error {
	if err := b.ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrBudget, err)
	}
	if d, ok := b.ctx.Deadline(); ok && !time.Now().Before(d) {
		return fmt.Errorf("%w: %w", ErrBudget, context.DeadlineExceeded)
	}
	if b.read.Load() > b.maxBytes {
		return fmt.Errorf("%w: read more than %d MB", ErrBudget, b.maxBytes>>20)
	}
	return nil
}

// safeFS is the only file system go-git gets: rooted at the git directory
// with links kept inside it (go-billy's BoundOS), read-only, regular files
// only (a FIFO in .git/objects is refused, never opened for a read that
// waits), opened non-blocking, and every read counted against the budget.
type safeFS struct {
	billy.Filesystem
	b *budget
}

func newSafeFS(root string, b *budget) billy.Filesystem {
	return &safeFS{Filesystem: osfs.New(root, osfs.WithBoundOS()), b: b}
}

func (s *safeFS) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errReadOnly}
	}
	if err := s.b.check(); err != nil {
		return nil, err
	}
	fi, err := s.Filesystem.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: &vfs.NotRegularError{Mode: fi.Mode()}}
	}
	f, err := s.Filesystem.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	// Checked again on the opened file, should it have been swapped.
	if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: name, Err: vfs.ErrNotRegular}
		}
	}
	return &budgetFile{File: f, b: s.b}, nil
}

func (s *safeFS) Open(name string) (billy.File, error) { return s.OpenFile(name, os.O_RDONLY, 0) }

func (s *safeFS) ReadDir(path string) ([]os.FileInfo, error) {
	if err := s.b.check(); err != nil {
		return nil, err
	}
	return s.Filesystem.ReadDir(path)
}

func (s *safeFS) Chroot(path string) (billy.Filesystem, error) {
	fs, err := s.Filesystem.Chroot(path)
	if err != nil {
		return nil, err
	}
	return &safeFS{Filesystem: fs, b: s.b}, nil
}

func (s *safeFS) Create(name string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: name, Err: errReadOnly}
}
func (s *safeFS) TempFile(dir, _ string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: dir, Err: errReadOnly}
}
func (s *safeFS) Rename(from, _ string) error {
	return &fs.PathError{Op: "rename", Path: from, Err: errReadOnly}
}
func (s *safeFS) Remove(name string) error {
	return &fs.PathError{Op: "remove", Path: name, Err: errReadOnly}
}
func (s *safeFS) MkdirAll(name string, _ os.FileMode) error {
	return &fs.PathError{Op: "mkdir", Path: name, Err: errReadOnly}
}
func (s *safeFS) Symlink(_, link string) error {
	return &fs.PathError{Op: "symlink", Path: link, Err: errReadOnly}
}

// budgetFile counts what is read from it.
type budgetFile struct {
	billy.File
	b *budget
}

func (f *budgetFile) Read(p []byte) (int, error) {
	if err := f.b.check(); err != nil {
		return 0, err
	}
	n, err := f.File.Read(p)
	f.b.read.Add(int64(n))
	return n, err
}

func (f *budgetFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.b.check(); err != nil {
		return 0, err
	}
	n, err := f.File.ReadAt(p, off)
	f.b.read.Add(int64(n))
	return n, err
}

func (f *budgetFile) Write([]byte) (int, error) { return 0, errReadOnly }
func (f *budgetFile) Truncate(int64) error      { return errReadOnly }
