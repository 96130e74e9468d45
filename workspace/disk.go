package workspace

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sync/singleflight"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// disk remembers what was read from the disk until a change event says it
// changed (Session.Update with Change.Disk): every snapshot shares it, so a
// file is read once per change, not once per request. Entries are
// immutable; invalidation replaces them. They are kept in a tree of
// folders (pathTree), so that a folder's path is held once for everything
// below it and whatever lies below a folder goes with it.
type disk struct {
	fs   vfs.FS
	busy *inflight.Counter // the session's computations in flight
	// readOnce: the session's caller reads each file once and never asks
	// what changed (Options.ReadOnce), so a file read through keeps
	// nothing here, not even its stat and digest.
	readOnce bool

	mu   sync.Mutex
	held pathTree[held]
	// listing makes one listing of a folder that several ask for at once.
	listing singleflight.Group
}

// held is what d knows of one path.
type held struct {
	file *File
	stat *statResult
	list *listing
	// digest is the SHA-256 of a file read through (readThrough) and not
	// kept: an unchanged evidence run is known by it without a read.
	digest *[sha256.Size]byte
}

func (h *held) empty() bool {
	return h.file == nil && h.stat == nil && h.list == nil && h.digest == nil
}

type statResult struct {
	info fs.FileInfo
	err  error
}

// listing is a folder's entries as listed, sorted by name: their names and
// types, what callers ask of them (a listing's fs.DirEntry values are made
// when asked for, not kept).
type listing struct {
	names []string
	types []fs.FileMode
	err   error
}

func newListing(entries []fs.DirEntry, err error) *listing {
	if err == nil && len(entries) == 1 {
		return oneEntryListing(entries[0])
	}
	l := &listing{names: make([]string, len(entries)), types: make([]fs.FileMode, len(entries)), err: err}
	for i, e := range entries {
		l.names[i], l.types[i] = e.Name(), e.Type()
	}
	return l
}

// oneEntry is the entry of a folder that holds one.
type oneEntry struct {
	name string
	typ  fs.FileMode
}

// oneEntryListings are the listings of a folder holding one entry, made
// once for every folder holding one of that name and type (listings are
// immutable): a history's run folders each hold their evidence.json, and a
// hundred thousand copies of that listing would be held until check ends.
// At most maxOneEntry names are kept: when they are, the next starts anew.
var oneEntryListings struct {
	sync.Mutex
	m map[oneEntry]*listing
}

const maxOneEntry = 64

// oneEntryListing is the listing of a folder that holds e alone.
func oneEntryListing(e fs.DirEntry) *listing {
	key := oneEntry{e.Name(), e.Type()}
	shared := &oneEntryListings
	shared.Lock()
	defer shared.Unlock()
	if l := shared.m[key]; l != nil {
		return l
	}
	if shared.m == nil || len(shared.m) == maxOneEntry {
		shared.m = map[oneEntry]*listing{} // the names seen lately are kept
	}
	l := &listing{names: []string{key.name}, types: []fs.FileMode{key.typ}}
	shared.m[key] = l
	return l
}

// has reports whether the listing has name.
func (l *listing) has(name string) bool {
	_, ok := l.typeOf(name)
	return ok
}

// typeOf is the type of name in the listing; ok is false when it lacks it.
func (l *listing) typeOf(name string) (typ fs.FileMode, ok bool) {
	i := sort.SearchStrings(l.names, name)
	if i < len(l.names) && l.names[i] == name {
		return l.types[i], true
	}
	return 0, false
}

// entries are the listing of folder dir as fs.DirEntry values.
func (l *listing) entries(dir string) []fs.DirEntry {
	if l.names == nil {
		return nil
	}
	slab := make([]listedEntry, len(l.names))
	out := make([]fs.DirEntry, len(l.names))
	for i := range l.names {
		slab[i] = listedEntry{dir: dir, name: l.names[i], typ: l.types[i]}
		out[i] = &slab[i]
	}
	return out
}

// listedEntry is an entry of a listing held: its Info is an lstat, as
// os.ReadDir's is.
type listedEntry struct {
	dir, name string
	typ       fs.FileMode
}

func (e *listedEntry) Name() string               { return e.name }
func (e *listedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *listedEntry) Type() fs.FileMode          { return e.typ }
func (e *listedEntry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.dir, e.name)) }
func (e *listedEntry) String() string             { return fs.FormatDirEntry(e) }

func newDisk(fsys vfs.FS, b *inflight.Counter) *disk {
	return &disk{fs: fsys, busy: b}
}

// get is what d holds of path; d.mu is held.
func (d *disk) get(path string) held {
	h, _ := d.held.get(path)
	return h
}

// put changes what d holds of path; d.mu is held.
func (d *disk) put(path string, f func(h *held)) {
	d.held.update(path, func(h *held) bool {
		f(h)
		return !h.empty()
	})
}

// file reads path once. Only a regular file within the size limit is read
// (the vfs never opens anything else, and reads at most the limit + 1 byte
// whatever the stat said): a FIFO, a device, a socket or a folder gets a
// *vfs.NotRegularError, a larger file a *vfs.TooLargeError.
func (d *disk) file(path string) *File {
	d.mu.Lock()
	at := d.lookAt(path)
	d.mu.Unlock()
	if at.h.file != nil {
		return at.h.file
	}
	f, st := d.load(path, at, true)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.put(path, func(h *held) {
		if st != nil {
			h.stat = st
		}
		if h.file == nil {
			h.file = f
		}
		f = h.file // another reader won the race: everyone shares one File
	})
	return f
}

// readThrough is file without keeping what it read (the stat is kept, so a
// change is still seen): for an evidence run, which the loader parses once
// and reads again only to place a diagnostic; a hundred thousand of them
// would otherwise stay in memory. A file already held is returned as held.
// A read-once disk keeps neither the stat nor the digest: nothing asks
// whether the file changed.
func (d *disk) readThrough(path string) *File {
	d.mu.Lock()
	at := d.lookAt(path)
	d.mu.Unlock()
	if at.h.file != nil {
		return at.h.file
	}
	f, st := d.load(path, at, !d.readOnce)
	var sum *[sha256.Size]byte
	if f.Err == nil && !d.readOnce {
		s := sha256.Sum256(f.Text)
		sum = &s
	}
	if st != nil || sum != nil {
		d.mu.Lock()
		d.put(path, func(h *held) {
			if st != nil {
				h.stat = st
			}
			if sum != nil {
				h.digest = sum
			}
		})
		d.mu.Unlock()
	}
	return f
}

// digest is the SHA-256 of path's content as last read through, while no
// change of it was reported since; ok is false when it is not known.
func (d *disk) digest(path string) (sum [sha256.Size]byte, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.get(path).digest; p != nil {
		return *p, true
	}
	return sum, false
}

// load reads path, at being what d held of it before; keepStat keeps the
// stat taken on the way: when the read took it, it is returned (st) for
// the caller to keep with what it keeps of the file, under one lock.
func (d *disk) load(path string, at looked, keepStat bool) (f *File, st *statResult) {
	f = &File{Path: path, busy: d.busy}
	if data, info, ok := d.readStat(path, at); ok {
		f.Text, f.Size, f.Mode, f.ModTime = data, info.Size(), info.Mode(), info.ModTime()
		if keepStat {
			st = keptStat(path, info, nil)
		}
		return f, st
	}
	info, err := d.statKeeping(path, keepStat)
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
	return f, nil
}

// readStat reads path and takes its stat in one go, when the file system
// can: at once when its folder's listing held (at) shows it a regular file
// (vfs.ListedReader), else when the stat is not held already
// (vfs.StatReader).
func (d *disk) readStat(path string, at looked) (data []byte, info fs.FileInfo, ok bool) {
	known := at.h.stat != nil || listedWithout(at.folder, at.name)
	if lr, can := d.fs.(vfs.ListedReader); can && listedRegular(at.folder, at.name) {
		return lr.ReadListed(path)
	} else if sr, can := d.fs.(vfs.StatReader); can && !known {
		return sr.ReadStat(path)
	}
	return nil, nil, false
}

func (d *disk) stat(path string) (fs.FileInfo, error) { return d.statKeeping(path, true) }

// statKeeping is stat; keep keeps a stat taken.
func (d *disk) statKeeping(path string, keep bool) (fs.FileInfo, error) {
	d.mu.Lock()
	h, folder, name := d.look(path)
	r := h.stat
	if r == nil && listedWithout(folder, name) {
		d.mu.Unlock()
		return nil, &fs.PathError{Op: "stat", Path: path, Err: syscall.ENOENT}
	}
	d.mu.Unlock()
	if r != nil {
		return r.info, r.answer(path)
	}
	info, err := d.fs.Stat(path)
	if keep {
		d.mu.Lock()
		d.put(path, func(h *held) { h.stat = keptStat(path, info, err) })
		d.mu.Unlock()
	}
	return info, err
}

// keptStat is what d keeps of a stat of path: what revalidation compares
// (vfs.Info), and an error without its copy of path.
func keptStat(path string, info fs.FileInfo, err error) *statResult {
	if info != nil {
		info = vfs.Compact(strings.Clone(filepath.Base(path)), info)
	}
	if pe, ok := err.(*fs.PathError); ok && pe.Path == path {
		err = &fs.PathError{Op: pe.Op, Err: pe.Err}
	}
	return &statResult{info, err}
}

// answer is the kept error of a stat of path as the stat said it.
func (r *statResult) answer(path string) error {
	if pe, ok := r.err.(*fs.PathError); ok && pe.Path == "" {
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return r.err
}

// looked is what d held of a path (look).
type looked struct {
	h      held
	folder *listing
	name   string
}

// lookAt is look's answer as one value; d.mu is held.
func (d *disk) lookAt(path string) looked {
	h, folder, name := d.look(path)
	return looked{h, folder, name}
}

// look is what d holds of path and the listing it holds of path's folder
// (nil when none), found with one walk of the tree; name is path's name in
// that folder. d.mu is held.
func (d *disk) look(path string) (h held, folder *listing, name string) {
	dir := vfs.Dir(path)
	if dir == path {
		return d.get(path), nil, ""
	}
	name = filepath.Base(path)
	n := d.held.find(dir, false)
	if n == nil {
		return held{}, nil, name
	}
	if k := n.kid(name); k != nil {
		h = k.val
	}
	return h, n.val.list, name
}

// listedWithout reports whether folder was listed without name: then it
// is not there, and no system call needs to say so (a monorepo's files
// look for a project configuration in every folder above them).
func listedWithout(folder *listing, name string) bool {
	return folder != nil && folder.err == nil && !folder.has(name)
}

// listedRegular reports whether folder was listed with name in it as a
// regular file.
func listedRegular(folder *listing, name string) bool {
	if folder == nil || folder.err != nil {
		return false
	}
	typ, ok := folder.typeOf(name)
	return ok && typ.IsRegular()
}

// holds is what d's listing of folder dir says of name: known is false
// when d holds no listing of dir (or only a failed one).
func (d *disk) holds(dir, name string) (has, known bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.listed(dir, name)
}

// listed is holds with d.mu held.
func (d *disk) listed(dir, name string) (has, known bool) {
	l := d.get(dir).list
	if l == nil || l.err != nil {
		return false, false
	}
	return l.has(name), true
}

func (d *disk) readDir(path string) ([]fs.DirEntry, error) {
	d.mu.Lock()
	l := d.get(path).list
	d.mu.Unlock()
	if l != nil {
		return l.entries(path), l.err
	}
	// One listing of a folder asked for by two at once (check's walk and
	// a freshness clock reading the same source folder): the second
	// waits for the first's.
	var mine []fs.DirEntry
	listed := false
	v, _, _ := d.listing.Do(path, func() (any, error) {
		d.mu.Lock()
		l := d.get(path).list
		d.mu.Unlock()
		if l != nil {
			return l, nil // listed between the look and here
		}
		entries, err := d.fs.ReadDir(path)
		vfs.SortByName(entries)
		l = newListing(entries, err)
		d.mu.Lock()
		d.put(path, func(h *held) { h.list = l })
		d.mu.Unlock()
		mine, listed = entries, true
		return l, nil
	})
	l = v.(*listing)
	if listed {
		return mine, l.err // as listed: no copy
	}
	return l.entries(path), l.err
}

// invalidate forgets path, its parent's listing and, when path was a
// listed folder, everything under it. A path that appeared in a folder
// that is new too (a run's evidence.json, reported without its folder) also
// drops the listings above it that do not have it yet.
func (d *disk) invalidate(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	wasDir := d.get(path).list != nil
	d.put(path, func(h *held) { h.file, h.digest, h.stat = nil, nil, nil })
	d.put(filepath.Dir(path), func(h *held) { h.list = nil })
	for child, dir := filepath.Dir(path), filepath.Dir(filepath.Dir(path)); dir != child; child, dir = dir, filepath.Dir(dir) {
		d.put(child, func(h *held) { h.stat = nil })
		l := d.get(dir).list
		if l == nil || l.err == nil && l.has(filepath.Base(child)) {
			break
		}
		d.put(dir, func(h *held) { h.list = nil })
	}
	if wasDir {
		d.held.deleteUnder(path)
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
	// What is held, taken under the lock in one walk (slices, not maps:
	// the lock is held while a history's hundred thousand entries are
	// taken, and readers wait for it).
	type statHeld struct {
		path string
		was  statResult
	}
	type listHeld struct {
		path string
		was  *listing
	}
	var stats []statHeld
	var dirs []listHeld
	d.mu.Lock()
	d.held.walk("", func(p string, h held) {
		if h.stat != nil {
			stats = append(stats, statHeld{p, *h.stat})
		}
		if h.list != nil {
			dirs = append(dirs, listHeld{p, h.list})
		}
	})
	d.mu.Unlock()

	var out []string
	n := 0
	stop := func() bool {
		n++
		return n%128 == 0 && ctx.Err() != nil
	}
	for _, h := range stats {
		if stop() {
			return nil, ctx.Err()
		}
		info, err := d.fs.Stat(h.path)
		if !sameStat(h.was, statResult{info, err}) {
			out = append(out, h.path)
		}
	}
	for _, h := range dirs {
		if stop() {
			return nil, ctx.Err()
		}
		entries, err := d.fs.ReadDir(h.path)
		vfs.SortByName(entries)
		out = append(out, listingChanges(h.path, h.was, newListing(entries, err))...)
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
func listingChanges(dir string, a, b *listing) []string {
	if (a.err == nil) != (b.err == nil) {
		return []string{dir}
	}
	var out []string
	i, j := 0, 0
	for i < len(a.names) || j < len(b.names) {
		switch {
		case j == len(b.names) || i < len(a.names) && a.names[i] < b.names[j]:
			out = append(out, filepath.Join(dir, a.names[i]))
			i++
		case i == len(a.names) || b.names[j] < a.names[i]:
			out = append(out, filepath.Join(dir, b.names[j]))
			j++
		default:
			if a.types[i] != b.types[j] {
				out = append(out, filepath.Join(dir, a.names[i]))
			}
			i, j = i+1, j+1
		}
	}
	return out
}

// reset forgets everything (a client that cannot watch files).
func (d *disk) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.held = pathTree[held]{}
}
