package vfs

import (
	"io/fs"
	"os"
	"time"
)

// Info is a file's metadata as a cache keeps it: what a stat said and what
// telling two stats apart needs (size, time, mode, identity), in 48 bytes
// besides the name. Confined's stats return it; Compact makes one from
// any fs.FileInfo.
type Info struct {
	name     string
	size     int64
	mtime    int64 // nanoseconds since the epoch
	mode     fs.FileMode
	dev, ino uint64 // 0, 0: unknown
}

func (i *Info) Name() string       { return i.name }
func (i *Info) Size() int64        { return i.size }
func (i *Info) Mode() fs.FileMode  { return i.mode }
func (i *Info) ModTime() time.Time { return time.Unix(0, i.mtime) }
func (i *Info) IsDir() bool        { return i.mode.IsDir() }

// Sys is the file's identity, a FileID, or nil when unknown.
func (i *Info) Sys() any {
	if i.dev == 0 && i.ino == 0 {
		return nil
	}
	return FileID{Dev: i.dev, Ino: i.ino}
}

// FileID is a file's identity on its device.
type FileID struct{ Dev, Ino uint64 }

// Compact is fi as an *Info named name (a substring of the path the caller
// keeps anyway, so the name costs nothing).
func Compact(name string, fi fs.FileInfo) *Info {
	if i, ok := fi.(*Info); ok && i.name == name {
		return i
	}
	i := &Info{name: name, size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	if id, ok := identity(fi); ok {
		i.dev, i.ino = id.Dev, id.Ino
	}
	return i
}

// SameFile reports whether two stats describe the same file (device and
// inode), as os.SameFile does for the os package's own stats; false when
// either does not say.
func SameFile(a, b fs.FileInfo) bool {
	ia, oka := identity(a)
	ib, okb := identity(b)
	if oka && okb {
		return ia == ib
	}
	return os.SameFile(a, b)
}

func identity(fi fs.FileInfo) (FileID, bool) {
	switch s := fi.Sys().(type) {
	case FileID:
		return s, true
	case nil:
		return FileID{}, false
	}
	return sysIdentity(fi.Sys())
}
