package vfs

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Confined's fast path on Linux. An os.Root resolves a path one component
// at a time (an openat and a close per folder on the way: sixty system
// calls for a file nine folders down); openat2 with RESOLVE_BENEATH
// resolves it in one call with the same guarantee: no absolute link, no
// "..", no link that leads out of the root is followed. The folder is
// resolved that way, and the file is then looked at (fstatat, without
// following a link) and opened (openat, O_NOFOLLOW) under the folder's
// descriptor, so nothing is opened before it is seen to be a regular
// file (a file its caller saw listed as one is opened at once:
// ReadListed). Only the usual outcomes are answered here — a regular file read,
// a folder listed, a stat, a name not in its folder; anything else (a
// link, a FIFO, a file over the limit, a folder that is not there, a
// refused resolution) takes the general path, which says exactly why.

// noOpenat2 is set when the kernel (or a sandbox) has no openat2.
var noOpenat2 atomic.Bool

func beneathHow(flags uint64) *unix.OpenHow {
	return &unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
}

// beneath runs op with the descriptor of the root holding name and name's
// path under it; name must not be the root itself unless self. ok is
// false when there is no fast path for name.
func (c *Confined) beneath(name string, self bool, op func(rfd int, rel string)) bool {
	if c.FS != OS || noOpenat2.Load() {
		return false
	}
	name = absClean(name)
	for _, root := range c.Roots() {
		root = absClean(root)
		if !belowClean(root, name) {
			continue
		}
		if name == root && !self {
			return false
		}
		f, err := c.rootDir(root)
		if err != nil {
			return false
		}
		rel := "."
		if name != root {
			rel = name[len(root):]
			rel = strings.TrimPrefix(rel, string(filepath.Separator))
		}
		rc, err := f.SyscallConn()
		if err != nil {
			return false
		}
		return rc.Control(func(fd uintptr) { op(int(fd), rel) }) == nil
	}
	return false
}

// openBeneath is openat2 under rfd; a kernel or sandbox without it turns
// the fast path off.
func openBeneath(rfd int, rel string, flags uint64) (int, error) {
	fd, err := unix.Openat2(rfd, rel, beneathHow(flags))
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		noOpenat2.Store(true) // a seccomp filter answers EPERM for what it does not know
	}
	return fd, err
}

// inFolder runs op with the descriptor of name's folder (resolved beneath
// the root) and name's last component.
func (c *Confined) inFolder(name string, op func(dfd int, base string) (handled bool)) bool {
	handled := false
	ok := c.beneath(name, false, func(rfd int, rel string) {
		dfd, err := openBeneath(rfd, filepath.Dir(rel), unix.O_PATH|unix.O_DIRECTORY)
		if err != nil {
			return
		}
		defer unix.Close(dfd)
		handled = op(dfd, filepath.Base(rel))
	})
	return ok && handled
}

func (c *Confined) statFast(name string) (fi fs.FileInfo, err error, ok bool) {
	ok = c.inFolder(name, func(dfd int, base string) bool {
		var st unix.Stat_t
		switch e := unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case e == unix.ENOENT:
			err = &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOENT}
			return true
		case e != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK:
			return false
		}
		fi = infoOf(name, &st)
		return true
	})
	return fi, err, ok
}

func (c *Confined) readFast(name string) (data []byte, err error, ok bool) {
	data, _, err, ok = c.readStatFast(name)
	return data, err, ok
}

// ReadStat reads a regular file within the size limit and returns its
// stat (vfs.StatReader): the stat of the opened descriptor.
func (c *Confined) ReadStat(name string) ([]byte, fs.FileInfo, bool) {
	data, info, err, ok := c.readStatFast(name)
	if !ok || err != nil {
		return nil, nil, false
	}
	return data, info, true
}

func (c *Confined) readStatFast(name string) (data []byte, info fs.FileInfo, err error, ok bool) {
	ok = c.inFolder(name, func(dfd int, base string) bool {
		var st unix.Stat_t
		switch e := unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case e == unix.ENOENT:
			err = &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
			return true
		case e != nil || !readable(&st):
			return false
		}
		fd, e := unix.Openat(dfd, base, fileFlags, 0)
		if e != nil {
			return false
		}
		var read bool
		data, info, read = readOpened(fd, name)
		return read
	})
	return data, info, err, ok
}

// ReadListed reads name, which its caller saw listed as a regular file in
// its folder (vfs.ListedReader): that listing was the look before the
// open, so the file is opened at once, in one openat2 beneath the root
// with fileFlags, and only the opened descriptor is checked — a swap
// since the listing finds a link refused (O_NOFOLLOW), a FIFO not waited
// on (O_NONBLOCK) and anything but a regular file within the limit not
// read. Every such case, and a name gone since, is left to the caller
// (ok false), whose general path says exactly why.
func (c *Confined) ReadListed(name string) ([]byte, fs.FileInfo, bool) {
	var data []byte
	var info *Info
	read := false
	ok := c.beneath(name, false, func(rfd int, rel string) {
		fd, err := openBeneath(rfd, rel, uint64(fileFlags))
		if err != nil {
			return
		}
		data, info, read = readOpened(fd, name)
	})
	if !ok || !read {
		return nil, nil, false
	}
	return data, info, true
}

// fileFlags open a file to be read beneath a root or a folder: never
// through a link at the last component, never waiting (readFlags).
const fileFlags = readFlags | unix.O_NOFOLLOW | unix.O_CLOEXEC

// readable reports whether st is a regular file within the size limit.
func readable(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size <= MaxFileSize
}

// readOpened reads the file opened at fd, and closes it, when the opened
// descriptor is a regular file within the limit: checked on the
// descriptor, so a swap since the look is seen. It reads at most the limit
// + 1 byte whatever the stat said, and stops at end of file: a read that
// returns 0, or one that came short of its room once the stat's size is
// read. ok is false for anything else (the general path says why).
func readOpened(fd int, name string) (data []byte, info *Info, ok bool) {
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || !readable(&st) {
		return nil, nil, false
	}
	buf := make([]byte, 0, st.Size+1)
	for int64(len(buf)) <= MaxFileSize {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):min(cap(buf), MaxFileSize+1)]
		n, e := unix.Read(fd, room)
		if e == unix.EINTR {
			continue
		}
		if e != nil {
			return nil, nil, false
		}
		buf = buf[:len(buf)+n]
		if n == 0 || n < len(room) && int64(len(buf)) == st.Size {
			return buf, infoOf(name, &st), true
		}
	}
	return nil, nil, false // grew past the limit while read: the general path says so
}

func (c *Confined) readDirFast(name string) (entries []fs.DirEntry, err error, ok bool) {
	handled, notDir := false, false
	ok = c.beneath(name, true, func(rfd int, rel string) {
		fd, e := openBeneath(rfd, rel, unix.O_RDONLY|unix.O_DIRECTORY)
		if e != nil {
			notDir = e == unix.ENOTDIR
			return
		}
		defer unix.Close(fd)
		entries, handled = listFolder(fd, absClean(name))
	})
	if ok && notDir {
		// A file that is not a folder, the general path would open to
		// list it (and wait on a FIFO): said here without opening it.
		if c.inFolder(name, func(dfd int, base string) bool {
			var st unix.Stat_t
			if unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW) != nil ||
				st.Mode&unix.S_IFMT == unix.S_IFDIR || st.Mode&unix.S_IFMT == unix.S_IFLNK {
				return false
			}
			err = &fs.PathError{Op: "readdir", Path: name, Err: syscall.ENOTDIR}
			return true
		}) {
			return nil, err, true
		}
	}
	return entries, nil, ok && handled
}

// listFolder reads the open folder fd (at path dir) as os.ReadDir does,
// sorted by name. Each getdents buffer is measured first, so that its
// entries and their names take one allocation each, not one a name and a
// slice grown on the way.
func listFolder(fd int, dir string) ([]fs.DirEntry, bool) {
	var ents []dirent
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			break
		}
		count, size, ok := direntSizes(buf[:n])
		if !ok {
			return nil, false
		}
		ents = slices.Grow(ents, count)
		var names strings.Builder // each name a part of it: grown once, never moved
		names.Grow(size)
		for b := buf[:n]; len(b) > 0; {
			rec := b[:binary.NativeEndian.Uint16(b[16:18])]
			b = b[len(rec):]
			nameBytes, dot := direntName(rec)
			if dot {
				continue
			}
			start := names.Len()
			names.Write(nameBytes)
			name := names.String()[start:]
			mode, known := direntType(rec[18])
			if !known {
				var st unix.Stat_t
				if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
					continue // gone since the listing, as os.ReadDir skips it
				}
				mode = modeOf(st.Mode).Type()
			}
			ents = append(ents, dirent{dir: dir, name: name, typ: mode})
		}
	}
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	out := make([]fs.DirEntry, len(ents))
	for i := range ents {
		out[i] = &ents[i]
	}
	return out, true
}

// direntSizes is how many entries (other than "." and "..") the getdents
// records in b hold and their names' bytes; ok is false when a record's
// length does not fit.
func direntSizes(b []byte) (count, size int, ok bool) {
	for len(b) > 0 {
		if len(b) < 19 {
			return 0, 0, false
		}
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			return 0, 0, false
		}
		if name, dot := direntName(b[:reclen]); !dot {
			count++
			size += len(name)
		}
		b = b[reclen:]
	}
	return count, size, true
}

// direntName is the name of the getdents record rec; dot is set for "."
// and "..".
func direntName(rec []byte) (name []byte, dot bool) {
	name = rec[19:]
	if i := slices.Index(name, 0); i >= 0 {
		name = name[:i]
	}
	return name, string(name) == "." || string(name) == ".."
}

// direntBufs are getdents buffers: one made per listing was 8 KB of
// garbage per folder (or of stack, grown on each goroutine that lists).
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8192); return &b }}

func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// dirent is a folder entry as os.ReadDir gives it: its Info is an lstat.
type dirent struct {
	dir, name string
	typ       fs.FileMode
}

func (d *dirent) Name() string               { return d.name }
func (d *dirent) IsDir() bool                { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode          { return d.typ }
func (d *dirent) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(d.dir, d.name)) }
func (d *dirent) String() string             { return fs.FormatDirEntry(d) }

// infoOf is st as an *Info named after name's last component.
func infoOf(name string, st *unix.Stat_t) *Info {
	base := name
	if i := strings.LastIndexByte(name, filepath.Separator); i >= 0 {
		base = name[i+1:]
	}
	return &Info{name: base, size: st.Size, mtime: st.Mtim.Nano(), mode: modeOf(st.Mode), dev: st.Dev, ino: st.Ino}
}

// modeOf is the fs.FileMode of a stat's mode, as the os package makes it.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
