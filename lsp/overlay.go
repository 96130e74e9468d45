package lsp

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// overlay is the file system the analysis sees: open documents (with their
// unsaved edits) win over the disk, as in gopls. The disk under it is
// confined to the workspace folders (vfs.Confined, see New), whatever path
// a feature asks for: an absolute URI in a command, a charter folder that
// is a symbolic link out of the workspace. Open documents are the editor's
// own text and are always served.
type overlay struct {
	sess *session
	disk vfs.FS
}

var _ vfs.FS = overlay{}

func (o overlay) ReadFile(name string) ([]byte, error) {
	if d := o.sess.getPath(name); d != nil {
		if d.TooLarge() {
			// The size limit holds for unsaved text as for the disk.
			return nil, &fs.PathError{Op: "read", Path: name, Err: &vfs.TooLargeError{Size: int64(len(d.Text)), Limit: vfs.MaxFileSize}}
		}
		// A copy: the caller owns what ReadFile returns, as with os.ReadFile.
		return bytes.Clone(d.Text), nil
	}
	return o.disk.ReadFile(name)
}

func (o overlay) Stat(name string) (fs.FileInfo, error) {
	d := o.sess.getPath(name)
	if d == nil {
		return o.disk.Stat(name)
	}
	fi := docInfo{name: filepath.Base(d.Path), size: int64(len(d.Text)), mode: 0o644}
	// Keep the disk's time: freshness compares file times, and typing in an
	// open file has not changed it on disk yet.
	if disk, err := o.disk.Stat(name); err == nil {
		fi.mod, fi.mode = disk.ModTime(), disk.Mode()
	}
	return fi, nil
}

// ReadDir lists the disk entries plus open documents not yet saved there.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := o.disk.ReadDir(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, vfs.ErrOutside) {
		return nil, err
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		seen[e.Name()] = true
	}
	dir := filepath.Clean(name)
	added := false
	for _, d := range o.sess.all() {
		if filepath.Dir(d.Path) != dir || seen[filepath.Base(d.Path)] {
			continue
		}
		fi, _ := o.Stat(d.Path)
		entries = append(entries, fs.FileInfoToDirEntry(fi))
		added = true
	}
	if err != nil && !added {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

// docInfo describes an open document.
type docInfo struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
}

func (i docInfo) Name() string       { return i.name }
func (i docInfo) Size() int64        { return i.size }
func (i docInfo) Mode() fs.FileMode  { return i.mode }
func (i docInfo) ModTime() time.Time { return i.mod }
func (i docInfo) IsDir() bool        { return false }
func (i docInfo) Sys() any           { return nil }
