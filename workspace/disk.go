package workspace

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// disk remembers what was read from the disk until a change event says it
// changed (Session.Update with Change.Disk): every snapshot shares it, so a
// file is read once per change, not once per request. Entries are
// immutable; invalidation replaces them.
type disk struct {
	fs   vfs.FS
	busy *inflight.Counter // the session's computations in flight

	mu    sync.Mutex
	files map[string]*File
	stats map[string]statResult
	dirs  map[string]dirResult
	// digests are the SHA-256 of files read through (readThrough) and not
	// kept: an unchanged evidence run is known by it without a read.
	digests map[string][sha256.Size]byte
}

type statResult struct {
	info fs.FileInfo
	err  error
}

type dirResult struct {
	entries []fs.DirEntry
	err     error
}

func newDisk(fsys vfs.FS, b *inflight.Counter) *disk {
	return &disk{fs: fsys, busy: b, files: map[string]*File{}, stats: map[string]statResult{}, dirs: map[string]dirResult{}, digests: map[string][sha256.Size]byte{}}
}

// file reads path once. Only a regular file within the size limit is read
// (the vfs never opens anything else, and reads at most the limit + 1 byte
// whatever the stat said): a FIFO, a device, a socket or a folder gets a
// *vfs.NotRegularError, a larger file a *vfs.TooLargeError.
func (d *disk) file(path string) *File {
	d.mu.Lock()
	f := d.files[path]
	d.mu.Unlock()
	if f != nil {
		return f
	}
	f = d.load(path)
	d.mu.Lock()
	defer d.mu.Unlock()
	if cur := d.files[path]; cur != nil {
		return cur // another reader won the race: everyone shares one File
	}
	d.files[path] = f
	return f
}

// readThrough is file without keeping what it read (the stat is kept, so a
// change is still seen): for an evidence run, which the loader parses once
// and reads again only to place a diagnostic; a hundred thousand of them
// would otherwise stay in memory. A file already held is returned as held.
func (d *disk) readThrough(path string) *File {
	d.mu.Lock()
	f := d.files[path]
	d.mu.Unlock()
	if f != nil {
		return f
	}
	f = d.load(path)
	if f.Err == nil {
		sum := sha256.Sum256(f.Text)
		d.mu.Lock()
		d.digests[path] = sum
		d.mu.Unlock()
	}
	return f
}

// digest is the SHA-256 of path's content as last read through, while no
// change of it was reported since; ok is false when it is not known.
func (d *disk) digest(path string) (sum [sha256.Size]byte, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sum, ok = d.digests[path]
	return sum, ok
}

// load reads path.
func (d *disk) load(path string) *File {
	f := &File{Path: path, busy: d.busy}
	info, err := d.stat(path)
	switch {
	case err != nil:
		f.Err = err
	case !info.Mode().IsRegular():
		f.Err, f.Mode, f.ModTime = &fs.PathError{Op: "read", Path: path, Err: &vfs.NotRegularError{Mode: info.Mode()}}, info.Mode(), info.ModTime()
	case info.Size() > analysis.MaxFileSize:
		f.Err, f.Size, f.Mode, f.ModTime = &fs.PathError{Op: "read", Path: path, Err: &vfs.TooLargeError{Size: info.Size(), Limit: analysis.MaxFileSize}}, info.Size(), info.Mode(), info.ModTime()
	default:
		f.Size, f.Mode, f.ModTime = info.Size(), info.Mode(), info.ModTime()
		if f.Text, f.Err = d.fs.ReadFile(path); f.Err != nil {
			f.Text = nil
			if size, tooLarge := vfs.IsTooLarge(f.Err); tooLarge {
				f.Size = size // it grew since the stat
			}
		}
	}
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
	delete(d.digests, path)
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
	for p := range d.digests {
		if strings.HasPrefix(p, prefix) {
			delete(d.digests, p)
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

// changed lists what differs on disk from what d holds, for a client that
// cannot say when the disk changes: every path stat'ed or read whose
// metadata changed (size, time, mode, identity, existence), and every entry
// that appeared in or left a listed folder. A folder's own path is not
// listed when its entries changed, only those entries: the rest of what is
// held under it stays valid. It costs a stat per file and a listing per
// folder held; nothing is read. It stops with ctx's error when ctx is done.
func (d *disk) changed(ctx context.Context) ([]string, error) {
	d.mu.Lock()
	stats := make(map[string]statResult, len(d.stats))
	for p, r := range d.stats {
		stats[p] = r
	}
	dirs := make(map[string]dirResult, len(d.dirs))
	for p, r := range d.dirs {
		dirs[p] = r
	}
	d.mu.Unlock()

	var out []string
	n := 0
	stop := func() bool {
		n++
		return n%128 == 0 && ctx.Err() != nil
	}
	for p, was := range stats {
		if stop() {
			return nil, ctx.Err()
		}
		info, err := d.fs.Stat(p)
		if !sameStat(was, statResult{info, err}) {
			out = append(out, p)
		}
	}
	for p, was := range dirs {
		if stop() {
			return nil, ctx.Err()
		}
		entries, err := d.fs.ReadDir(p)
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		out = append(out, listingChanges(p, was, dirResult{entries, err})...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// sameStat reports whether two stats of one path describe the same file.
func sameStat(a, b statResult) bool {
	if a.err != nil || b.err != nil {
		return a.err != nil && b.err != nil && errors.Is(a.err, fs.ErrNotExist) == errors.Is(b.err, fs.ErrNotExist)
	}
	return a.info.Size() == b.info.Size() && a.info.ModTime().Equal(b.info.ModTime()) &&
		a.info.Mode() == b.info.Mode() && (a.info.Sys() == nil || b.info.Sys() == nil || vfs.SameFile(a.info, b.info))
}

// listingChanges are the entries of folder dir that one listing has and the
// other has not (or has with another type); both listings are sorted. A
// folder that became unreadable, or readable, is a change of dir itself.
func listingChanges(dir string, a, b dirResult) []string {
	if (a.err == nil) != (b.err == nil) {
		return []string{dir}
	}
	var out []string
	i, j := 0, 0
	for i < len(a.entries) || j < len(b.entries) {
		switch {
		case j == len(b.entries) || i < len(a.entries) && a.entries[i].Name() < b.entries[j].Name():
			out = append(out, filepath.Join(dir, a.entries[i].Name()))
			i++
		case i == len(a.entries) || b.entries[j].Name() < a.entries[i].Name():
			out = append(out, filepath.Join(dir, b.entries[j].Name()))
			j++
		default:
			if a.entries[i].Type() != b.entries[j].Type() {
				out = append(out, filepath.Join(dir, a.entries[i].Name()))
			}
			i, j = i+1, j+1
		}
	}
	return out
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
	d.files, d.stats, d.dirs, d.digests = map[string]*File{}, map[string]statResult{}, map[string]dirResult{}, map[string][sha256.Size]byte{}
}
