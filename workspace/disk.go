package workspace

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ErrNotRegular is a path where a file is expected that is a directory, a
// FIFO, a device or a socket: it is never opened for reading, so it can
// neither block a check nor feed it without end.
var ErrNotRegular = errors.New("not a regular file")

// disk remembers what was read from the disk until a change event says it
// changed (Session.Update with Change.Disk): every snapshot shares it, so a
// file is read once per change, not once per request. Entries are
// immutable; invalidation replaces them.
type disk struct {
	fs   vfs.FS
	busy *busy // the session's computations in flight

	mu    sync.Mutex
	files map[string]*File
	stats map[string]statResult
	dirs  map[string]dirResult
}

type statResult struct {
	info fs.FileInfo
	err  error
}

type dirResult struct {
	entries []fs.DirEntry
	err     error
}

func newDisk(fsys vfs.FS, b *busy) *disk {
	return &disk{fs: fsys, busy: b, files: map[string]*File{}, stats: map[string]statResult{}, dirs: map[string]dirResult{}}
}

// file reads path once: only a regular file within the size limit is read.
func (d *disk) file(path string) *File {
	d.mu.Lock()
	f := d.files[path]
	d.mu.Unlock()
	if f != nil {
		return f
	}
	f = &File{Path: path, busy: d.busy}
	info, err := d.stat(path)
	switch {
	case err != nil:
		f.Err = err
	case !info.Mode().IsRegular():
		f.Err, f.Mode, f.ModTime = ErrNotRegular, info.Mode(), info.ModTime()
	case info.Size() > analysis.MaxFileSize:
		f.Err, f.Size, f.Mode, f.ModTime = ErrTooLarge, info.Size(), info.Mode(), info.ModTime()
	default:
		f.Size, f.Mode, f.ModTime = info.Size(), info.Mode(), info.ModTime()
		f.Text, f.Err = d.fs.ReadFile(path)
		if f.Err != nil {
			f.Text = nil
		} else if int64(len(f.Text)) > analysis.MaxFileSize {
			f.Text, f.Err = nil, ErrTooLarge // it grew since the stat
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if cur := d.files[path]; cur != nil {
		return cur // another reader won the race: everyone shares one File
	}
	d.files[path] = f
	return f
}

func (d *disk) stat(path string) (fs.FileInfo, error) {
	d.mu.Lock()
	r, ok := d.stats[path]
	d.mu.Unlock()
	if ok {
		return r.info, r.err
	}
	info, err := d.fs.Stat(path)
	d.mu.Lock()
	d.stats[path] = statResult{info, err}
	d.mu.Unlock()
	return info, err
}

func (d *disk) readDir(path string) ([]fs.DirEntry, error) {
	d.mu.Lock()
	r, ok := d.dirs[path]
	d.mu.Unlock()
	if ok {
		return r.entries, r.err
	}
	entries, err := d.fs.ReadDir(path)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	d.mu.Lock()
	d.dirs[path] = dirResult{entries, err}
	d.mu.Unlock()
	return entries, err
}

// invalidate forgets path, its parent's listing and, when path was a
// listed folder, everything under it. A path that appeared in a folder
// that is new too (a run's evidence.json, reported without its folder) also
// drops the listings above it that do not have it yet.
func (d *disk) invalidate(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.files, path)
	delete(d.stats, path)
	delete(d.dirs, filepath.Dir(path))
	for child, dir := filepath.Dir(path), filepath.Dir(filepath.Dir(path)); dir != child; child, dir = dir, filepath.Dir(dir) {
		delete(d.stats, child)
		r, listed := d.dirs[dir]
		if !listed || r.err == nil && hasEntry(r.entries, filepath.Base(child)) {
			break
		}
		delete(d.dirs, dir)
	}
	if _, wasDir := d.dirs[path]; !wasDir {
		return
	}
	prefix := path + string(filepath.Separator)
	for p := range d.files {
		if strings.HasPrefix(p, prefix) {
			delete(d.files, p)
		}
	}
	for p := range d.stats {
		if strings.HasPrefix(p, prefix) {
			delete(d.stats, p)
		}
	}
	for p := range d.dirs {
		if p == path || strings.HasPrefix(p, prefix) {
			delete(d.dirs, p)
		}
	}
}

// hasEntry reports whether a sorted listing has name.
func hasEntry(entries []fs.DirEntry, name string) bool {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= name })
	return i < len(entries) && entries[i].Name() == name
}

// reset forgets everything (a client that cannot watch files).
func (d *disk) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files, d.stats, d.dirs = map[string]*File{}, map[string]statResult{}, map[string]dirResult{}
}
