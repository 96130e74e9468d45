package workspace

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Snapshot is the workspace at one moment: which documents are open with
// which text, the settings, the workspace folders. It never changes; every
// fact derived from it is memoized on it and may be carried over to the
// next snapshot. It is safe for concurrent use.
type Snapshot struct {
	id   uint64
	sess *Session
	// Created is when the snapshot was made: the "now" of its diagnostics
	// (ages in messages).
	Created time.Time

	docs     map[string]*File // open documents by path
	settings Settings
	roots    []string

	mu       sync.Mutex
	read     pathTree[*File]                              // disk files this snapshot has looked at: one version each (none read once: File)
	configs  map[string]configResult                      // by project configuration file ("": none)
	lookups  map[string]string                            // each folder's project configuration file, "" for none (configFile)
	single   map[string]*promise[[]diag.Diagnostic]       // diagnostics of files checked alone
	charters map[string]*charter                          // pi charter directories
	folders  map[string]*promise[*charterfile.View]       // .charters/<id> folders
	clocks   map[string]map[string]*promise[clockReading] // freshness baselines, by project, then settings
	found    *promise[analysis.Workspace]                 // charters under the roots
	ids      idsMemo                                      // the projects' cites (ids.go)
	repos    *gitlog.Finder                               // the freshness clocks' repositories
}

type configResult struct {
	cfg analysis.Config
	err error
	// file is the project file that applies; ignored are its keys that
	// Restricted Mode left out.
	file    string
	ignored []string
}

func newSnapshot(s *Session, id uint64) *Snapshot {
	snap := &Snapshot{id: id, sess: s, Created: s.now(), docs: map[string]*File{},
		configs: map[string]configResult{}, lookups: map[string]string{},
		single: map[string]*promise[[]diag.Diagnostic]{}, charters: map[string]*charter{},
		folders: map[string]*promise[*charterfile.View]{},
		clocks:  map[string]map[string]*promise[clockReading]{}}
	// The repositories are looked for through the snapshot's listings: a
	// folder listed without .git needs no look.
	snap.repos = gitlog.NewFinderListed(snap.FS())
	return snap
}

// ID increases with every snapshot of a session.
func (s *Snapshot) ID() uint64 { return s.id }

// Settings are the user's settings.
func (s *Snapshot) Settings() Settings { return s.settings }

// Roots are the workspace folders.
func (s *Snapshot) Roots() []string { return append([]string(nil), s.roots...) }

// Document returns the open document at path, or nil.
func (s *Snapshot) Document(path string) *Document {
	if f := s.docs[vfs.Clean(path)]; f != nil {
		return f.doc
	}
	return nil
}

// Documents returns the open documents' files, by path.
func (s *Snapshot) Documents() []*File {
	out := make([]*File, 0, len(s.docs))
	for _, f := range s.docs {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// File returns path's version in this snapshot: the open document, else the
// disk's content (read once per change on disk). A file that does not
// exist, cannot be read or is over the size limit comes back with Err set.
func (s *Snapshot) File(path string) *File {
	path = vfs.Clean(path)
	if f := s.docs[path]; f != nil {
		return f
	}
	if s.sess.disk.readOnce {
		// The disk's record is this snapshot's: a read-once caller uses
		// no snapshot past the next Update, so none needs a version of
		// its own, and 22,000 files are not recorded twice.
		return s.sess.disk.file(path)
	}
	s.mu.Lock()
	f, _ := s.read.get(path)
	s.mu.Unlock()
	if f != nil {
		return f
	}
	f = s.sess.disk.file(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, _ := s.read.get(path); cur != nil {
		return cur
	}
	s.read.set(path, f)
	return f
}

// fileOnce is File, except that an evidence run's file that is neither
// open nor held already is read without being kept (disk.readThrough): the
// check of a history reads each of its hundred thousand runs once.
func (s *Snapshot) fileOnce(path string) *File {
	path = vfs.Clean(path)
	if s.docs[path] != nil || !isEvidenceRun(path) {
		return s.File(path)
	}
	s.mu.Lock()
	f, _ := s.read.get(path)
	s.mu.Unlock()
	if f != nil {
		return f
	}
	return s.sess.disk.readThrough(path)
}

// fileThrough is File for a file read once: one that is neither open nor
// held already is read without being kept.
func (s *Snapshot) fileThrough(path string) *File {
	path = vfs.Clean(path)
	if s.docs[path] != nil {
		return s.File(path)
	}
	s.mu.Lock()
	f, _ := s.read.get(path)
	s.mu.Unlock()
	if f != nil {
		return f
	}
	return s.sess.disk.readThrough(path)
}

// docFile is the File of an open document.
func docFile(d *Document, disk *disk) *File {
	f := &File{Path: d.Path, Text: d.Text, Version: d.Version, doc: d, Size: int64(len(d.Text)), Mode: 0o644, busy: disk.busy}
	if info, err := disk.stat(d.Path); err == nil && info.Mode().IsRegular() {
		f.ModTime, f.Mode = info.ModTime(), info.Mode()
	}
	return f
}

// Config is the configuration that applies to path: the project file found
// in its folder or above (up to the repository or workspace root), overridden
// by the user's settings key by key. A project file that does not parse is
// left out (its config-invalid diagnostic says why) and its error returned.
func (s *Snapshot) Config(path string) (analysis.Config, error) {
	r := s.config(vfs.Dir(vfs.Clean(path)))
	return r.cfg, r.err
}

// config is the configuration of the files of dir, computed once per
// project file (a history's hundred thousand run folders share one).
func (s *Snapshot) config(dir string) configResult {
	file := ""
	if !s.settings.Exclusive {
		file = s.projectConfigFile(dir)
	}
	s.mu.Lock()
	r, ok := s.configs[file]
	s.mu.Unlock()
	if ok {
		return r
	}
	if s.settings.Exclusive {
		r = configResult{cfg: s.settings.Config}
		s.mu.Lock()
		s.configs[file] = r
		s.mu.Unlock()
		return r
	}
	var project analysis.Config
	var err error
	if file != "" {
		f := s.File(file)
		if f.Err != nil {
			// Not a reason to stop: the defaults apply, and the file's own
			// diagnostic (file-not-regular, file-unreadable) says why.
			project = analysis.Config{}
		} else if project, err = analysis.ParseConfig(f.Text); err != nil {
			project, err = analysis.Config{}, fmt.Errorf("%s: %w", file, err)
		}
	}
	var ignored []string
	if s.settings.Restricted {
		ignored = project.RestrictedAway()
		project = project.Restricted()
	}
	r = configResult{cfg: project.Merge(s.settings.Config), err: err, file: file, ignored: ignored}
	s.mu.Lock()
	s.configs[file] = r
	s.mu.Unlock()
	return r
}

// IgnoredProjectKeys names the project configuration file that applies to
// path and the keys of it that Restricted Mode leaves out (none when the
// workspace is trusted).
func (s *Snapshot) IgnoredProjectKeys(path string) (file string, keys []string) {
	r := s.config(vfs.Dir(vfs.Clean(path)))
	return r.file, r.ignored
}

// projectConfigFile finds the project configuration file for dir, looking
// no higher than the workspace folder holding dir (when there is one).
func (s *Snapshot) projectConfigFile(dir string) string {
	var file string
	if isRunFolder(dir) {
		file = s.configFileOnce(dir) // one of a history's many: not kept
	} else {
		file = s.configFile(dir)
	}
	if file == "" || len(s.roots) == 0 {
		return file
	}
	for _, r := range s.roots {
		if within(r, dir) && within(r, file) {
			return file
		}
	}
	for _, r := range s.roots {
		if within(r, dir) {
			return "" // found above the workspace folder: not this project's
		}
	}
	return file
}

// configFile is analysis.FindConfigFile for dir with each folder's step
// (analysis.ConfigIn) memoized: the files of a monorepo share their
// folders' answers instead of each looking all the way up.
func (s *Snapshot) configFile(dir string) string {
	s.mu.Lock()
	file, ok := s.lookups[dir]
	s.mu.Unlock()
	if ok {
		return file
	}
	file = s.configFileOnce(dir)
	s.mu.Lock()
	s.lookups[dir] = file
	s.mu.Unlock()
	return file
}

// configFileOnce is configFile for dir without keeping dir's answer, only
// its folders': an evidence run's folder (one of a hundred thousand) is
// looked at again rather than held.
func (s *Snapshot) configFileOnce(dir string) string {
	file, stops := analysis.ConfigIn(s.FS(), dir)
	if parent := vfs.Dir(dir); !stops && parent != dir {
		file = s.configFile(parent)
	}
	return file
}

// derive is the snapshot after c, sharing with s whatever c left alone.
func (s *Snapshot) derive(c Change) *Snapshot {
	next := newSnapshot(s.sess, s.id+1)
	next.settings, next.roots = s.settings, s.roots
	changed := map[string]bool{}
	for p, f := range s.docs {
		next.docs[p] = f
	}
	for _, d := range c.Documents {
		p := vfs.Clean(d.Path)
		next.docs[p] = docFile(d, s.sess.disk)
		changed[p] = true
	}
	for _, p := range c.Closed {
		p = vfs.Clean(p)
		delete(next.docs, p)
		changed[p] = true
	}
	for _, p := range c.Disk {
		changed[vfs.Clean(p)] = true
	}
	if c.Settings != nil {
		next.settings = *c.Settings
	}
	if c.Roots != nil {
		next.roots = append([]string(nil), (*c.Roots)...)
	}

	configChanged := c.Settings != nil || c.Roots != nil || c.DiskUnknown
	sources := map[string]bool{} // projects whose sources changed on disk
	charterTouched := c.DiskUnknown || c.Roots != nil
	for p := range changed {
		switch {
		case analysis.Classify(p, nil) == analysis.KindConfig:
			configChanged = true
		case analysis.CharterFolder(p) != "" || strings.EqualFold(filepath.Base(p), "charter.md"):
			charterTouched = true
		}
	}
	for _, p := range c.Disk {
		if analysis.CharterFolder(p) == "" {
			sources[vfs.Clean(p)] = true
		}
	}

	// The memo tables are filled concurrently by readers of s.
	s.mu.Lock()
	defer s.mu.Unlock()
	// Diagnostics of single files: carried over unless the file or the
	// configuration changed.
	if !configChanged {
		for p, pr := range s.single {
			if !changed[p] {
				next.single[p] = pr
			}
		}
	}
	// Freshness baselines: carried over unless a source of their project
	// changed (or everything may have), or the reading timed out and its
	// back-off has passed (clock.go): then it is taken again, and the
	// charters of the project see what it says.
	reread := map[string]bool{}
	if !c.DiskUnknown {
		now := time.Now()
		for project, byKey := range s.clocks {
			if touchesProject(sources, project) {
				continue
			}
			for settings, pr := range byKey {
				if r, done := pr.peek(); done && r.rereads(now) {
					reread[project] = true
					continue
				}
				if next.clocks[project] == nil {
					next.clocks[project] = map[string]*promise[clockReading]{}
				}
				next.clocks[project][settings] = pr
			}
		}
	}
	// pi charters: an untouched charter is carried over whole; a change in
	// its folder (or its project's sources, or the settings) recomputes its
	// view and checks, reusing its evidence unless work/ changed.
	for dir, ch := range s.charters {
		var inDir, inWork, inRegister, inState bool
		for p := range changed {
			if within(dir, p) {
				inDir = true
				work := within(filepath.Join(dir, "work"), p)
				inWork = inWork || work || p == dir
				inRegister = inRegister || !work
				inState = inState || p == filepath.Join(dir, "criterion-state.json")
			}
		}
		switch {
		case c.DiskUnknown:
			// read everything again
		case !inDir && !configChanged && !touchesProject(sources, ch.project) && !reread[ch.project]:
			next.charters[dir] = ch
		default:
			next.charters[dir] = ch.renew(!inWork, !inRegister, !inState)
		}
	}
	// .charters/<id> folders: read together, once per change of the folder.
	if !configChanged && !c.DiskUnknown {
		for dir, pr := range s.folders {
			touched := false
			for p := range changed {
				touched = touched || within(dir, p)
			}
			if !touched {
				next.folders[dir] = pr
			}
		}
	}
	if s.found != nil && !charterTouched {
		next.found = s.found
	}
	s.ids.carry(&next.ids, changed, configChanged || c.DiskUnknown) // ids.go
	return next
}

// within reports whether p is dir or inside it (paths cleaned, no symlinks
// resolved).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func touchesProject(sources map[string]bool, project string) bool {
	if project == "" {
		return false
	}
	for p := range sources {
		if within(project, p) {
			return true
		}
	}
	return false
}

// FS is the snapshot as a file system for the analysis packages: open
// documents over the disk, each file read once per change. Returned bytes
// are shared: callers must not modify them.
func (s *Snapshot) FS() snapshotFS { return snapshotFS{s} }

type snapshotFS struct{ s *Snapshot }

func (o snapshotFS) ReadFile(name string) ([]byte, error) {
	f := o.s.fileOnce(name)
	if f.Err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: f.Err}
	}
	return f.Text, nil
}

func (o snapshotFS) Stat(name string) (fs.FileInfo, error) {
	name = vfs.Clean(name)
	if f := o.s.docs[name]; f != nil {
		return fileInfo{f}, nil
	}
	return o.s.sess.disk.stat(name)
}

// Holds is what the disk's listing of dir, when held, says of name
// (vfs.ListingHolder); an open document may stand for a file the disk
// lacks, so a snapshot with any leaves the question to Stat.
func (o snapshotFS) Holds(dir, name string) (has, known bool) {
	if len(o.s.docs) > 0 {
		return false, false
	}
	return o.s.sess.disk.holds(vfs.Clean(dir), name)
}

// ReadDir lists the disk entries plus open documents not yet saved there.
func (o snapshotFS) ReadDir(name string) ([]fs.DirEntry, error) {
	name = vfs.Clean(name)
	entries, err := o.s.sess.disk.readDir(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var extra []fs.DirEntry
	for p, f := range o.s.docs {
		if vfs.Dir(p) != name {
			continue
		}
		i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= filepath.Base(p) })
		if i < len(entries) && entries[i].Name() == filepath.Base(p) {
			continue
		}
		extra = append(extra, fs.FileInfoToDirEntry(fileInfo{f}))
	}
	if len(extra) == 0 {
		return entries, err
	}
	out := append(append([]fs.DirEntry(nil), entries...), extra...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// Digest is the SHA-256 of the evidence run at name as last read, when no
// change of it was reported since (pi.Digester): a reload takes over an
// unchanged run without reading it.
func (o snapshotFS) Digest(name string) ([sha256.Size]byte, bool) {
	name = vfs.Clean(name)
	if o.s.docs[name] != nil {
		return [sha256.Size]byte{}, false
	}
	return o.s.sess.disk.digest(name)
}

// isEvidenceRun reports whether path is a run's
// work/<segment>/evidence/<stamp>/evidence.json.
func isEvidenceRun(path string) bool {
	return filepath.Base(path) == "evidence.json" && isRunFolder(vfs.Dir(path))
}

// isRunFolder reports whether dir is a run's folder,
// work/<segment>/evidence/<stamp>.
func isRunFolder(dir string) bool {
	return filepath.Base(vfs.Dir(dir)) == "evidence"
}

// fileInfo describes an open document.
type fileInfo struct{ f *File }

func (i fileInfo) Name() string       { return filepath.Base(i.f.Path) }
func (i fileInfo) Size() int64        { return int64(len(i.f.Text)) }
func (i fileInfo) Mode() fs.FileMode  { return i.f.Mode }
func (i fileInfo) ModTime() time.Time { return i.f.ModTime }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }
