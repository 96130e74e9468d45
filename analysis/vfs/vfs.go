// Package vfs is the file access every analysis goes through, so the
// language server can lay its open, unsaved documents over the disk.
//
// It is also the one place where reading a file is made safe on a
// repository nobody has vetted: OS.ReadFile never blocks (a FIFO, a device
// node or a socket where a charter file is expected is refused, not opened
// for a read that waits forever) and never reads more than MaxFileSize + 1
// bytes (a 1 GB sparse REPORT.md costs nothing). Every reader — analysis,
// status, record, the server, the CLI — gets both by reading through here.
package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// MaxFileSize is the largest file anything reads; larger ones are refused
// with a *TooLargeError (analysis reports them as file-too-large).
const MaxFileSize = 16 << 20

// ErrNotRegular is what a *NotRegularError is (errors.Is): the path exists
// but is not a regular file. analysis reports it as file-not-regular.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is returned (wrapped in an *fs.PathError) for a
// directory, FIFO, device node or socket where a file was to be read.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string { return "is " + Describe(e.Mode) + ", not a regular file" }

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Describe names the kind of file mode is, for messages.
func Describe(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a folder"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// TooLargeError is returned (wrapped in an *fs.PathError) for a file over
// the size limit; nothing of it was read.
type TooLargeError struct {
	Size  int64 // the size seen, at least Limit + 1
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d MB is over the %d MB limit", e.Size>>20, e.Limit>>20)
}

// IsTooLarge reports whether err says a file is over the size limit, and
// its size.
func IsTooLarge(err error) (size int64, ok bool) {
	if err == nil {
		return 0, false // errors.As's target would escape: a read that worked allocates nothing
	}
	var tl *TooLargeError
	if errors.As(err, &tl) {
		return tl.Size, true
	}
	return 0, false
}

// FS reads files by operating-system path.
type FS interface {
	// ReadFile returns the content of a regular file of at most
	// MaxFileSize bytes; other files fail with ErrNotRegular or a
	// *TooLargeError.
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// StatReader is implemented by file systems that can read a file and say
// what it is in one go (Confined's fast path looks at a file before it
// opens it, and checks the opened descriptor: that is its stat). ok is
// false when it cannot say more cheaply than Stat then ReadFile would; the
// caller then asks those.
type StatReader interface {
	ReadStat(name string) (data []byte, info fs.FileInfo, ok bool)
}

// ListedReader is implemented by file systems that read a file more
// cheaply when the caller saw it listed as a regular file in its folder
// (the workspace's cache of the disk holds listings with each entry's
// type): the listing is the look before the open, and the opened file is
// checked again, so nothing but a regular file within the limit is read.
// ok is false when it cannot read it so (the name is gone, or is no longer
// a regular file within the limit, or there is no cheaper way here); the
// caller then asks Stat and ReadFile, which say why.
type ListedReader interface {
	ReadListed(name string) (data []byte, info fs.FileInfo, ok bool)
}

// ListingHolder is implemented by file systems that may hold a folder's
// listing already (the workspace's cache of the disk): Holds reports
// whether the listing of folder dir has name, and known is false when no
// listing of dir is held. A name a held listing lacks is not there, and
// asking Stat for it would say so at the cost of a lookup by its path
// (analysis.ConfigIn asks three names of every folder a file is in).
type ListingHolder interface {
	Holds(dir, name string) (has, known bool)
}

// SortByName puts a listing in name order, as fs.ReadDir promises it (an
// FS may not keep the promise). slices.SortFunc, not sort.Slice: no
// reflection and no allocation for each of a check's 20,000 listings.
func SortByName(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// OS is the real file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) ReadFile(name string) ([]byte, error)       { return ReadFile(name, MaxFileSize) }
func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// ReadFile reads the regular file name, of at most limit bytes, without
// ever blocking on it: it is opened non-blocking (opening a FIFO for
// reading would otherwise wait for a writer), checked with fstat on the
// opened descriptor (so a swap between a check and the open cannot fool
// it), and read with a bound of limit + 1 bytes whatever the size claims
// (a file that grows while read is still cut off).
func ReadFile(name string, limit int64) ([]byte, error) {
	return readRegular(name, limit,
		func() (fs.FileInfo, error) { return os.Stat(name) },
		func() (*os.File, error) { return os.OpenFile(name, readFlags, 0) })
}

// readRegular is ReadFile with the stat and the open given: by path, or
// under an os.Root (Confined). It looks before it opens, so a device node
// is never opened at all (opening one can have effects of its own).
func readRegular(name string, limit int64, stat func() (fs.FileInfo, error), open func() (*os.File, error)) ([]byte, error) {
	fi, err := stat()
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Op, pe.Path = "open", name // what the caller asked for
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	f, err := open()
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Path = name
		}
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	if fi.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Size: fi.Size(), Limit: limit}}
	}
	// Size+1 so the usual case reads in one go and sees EOF at once.
	buf := make([]byte, 0, fi.Size()+1)
	data, err := readAtMost(f, buf, limit+1)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Size: int64(len(data)), Limit: limit}}
	}
	return data, nil
}

// readAtMost appends r's content to buf until EOF or max bytes.
func readAtMost(r io.Reader, buf []byte, max int64) ([]byte, error) {
	for int64(len(buf)) < max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := min(int64(cap(buf)), max)
		n, err := r.Read(buf[len(buf):room])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// Listed is what folder dir holds: a folder's few files are found from
// its listing (which the workspace keeps anyway) rather than by asking for
// each name it may hold, and a regular file there needs no more asking.
func Listed(fsys FS, dir string) Listing {
	entries, err := fsys.ReadDir(dir)
	return Listing{entries: entries, ok: err == nil}
}

// Listing is a folder's entries as Listed read them.
type Listing struct {
	entries []fs.DirEntry
	ok      bool
}

// Read reports whether the folder could be listed.
func (l Listing) Read() bool { return l.ok }

// Type is name's type in the listing (fs.DirEntry.Type: 0 for a regular
// file) and whether the listing holds it. The entries are searched one by
// one: a charter folder holds a handful, and a map of them cost more than
// the search.
func (l Listing) Type(name string) (fs.FileMode, bool) {
	if !l.ok {
		return 0, false
	}
	for _, e := range l.entries {
		if e.Name() == name {
			return e.Type(), true
		}
	}
	return 0, false
}
