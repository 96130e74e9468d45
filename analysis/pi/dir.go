package pi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// File is one file of a charter directory as read.
type File struct {
	Path  string // absolute, cleaned
	Src   []byte
	Index *source.Index
}

// Dir is a .pi/charters/<id> directory, every file parsed.
type Dir struct {
	Path    string // absolute, cleaned
	ID      string
	Project string // the folder holding .pi/; "" when dir is not under .pi/charters

	CharterFile *File
	Charter     *Charter

	CriteriaFile *File
	CriteriaDoc  *Criteria // criteria.md as parsed, nil when missing

	// Scaffold is set when criteria.md is upstream's untouched scaffold
	// (see CriteriaScaffold); ScaffoldSpan is its VAL-EXAMPLE heading.
	Scaffold     bool
	ScaffoldSpan source.Span

	// Criteria is the effective register, chosen as upstream's
	// loadParsedCharter chooses it: criteria.md, unless it is missing or the
	// untouched scaffold; then charter.md's legacy ## Criteria section, even
	// when that holds no VAL or does not exist (an empty register). Legacy
	// is set in that case. CriteriaPath is the file the register lives in.
	Criteria     *Criteria
	CriteriaPath string
	Legacy       bool

	ReportFile *File
	Report     *Report

	StateFile     *File
	State         *State
	StateProblems []JSONProblem

	CriterionStateFile     *File
	CriterionState         *CriterionState
	CriterionStateProblems []JSONProblem

	// Evidence is the work/ folder's runs and their newest rows; Runs is
	// Evidence.Runs.
	Evidence *Evidence
	Runs     []*EvidenceRun // sorted by segment, then stamp

	// Errors are read failures other than a missing file, and refused symlinks.
	Errors []error
}

// EvidenceRun is one work/<segment>/evidence/<stamp>/evidence.json: its
// rows and their byte spans, and a digest of the file's content. A history
// holds a hundred thousand runs, so the file's bytes and line index are not
// kept: Read reads them again when a diagnostic must be placed.
type EvidenceRun struct {
	Segment  string
	Stamp    string
	RelPath  string // relative to the charter dir, slash-separated
	Path     string // absolute, cleaned
	Rows     []EvidenceRow
	Problems []JSONProblem

	fsys   vfs.FS
	digest [sha256.Size]byte
}

// ErrRunChanged is Read's error when a run's file no longer holds what was
// loaded: its spans would point at the wrong places. The next load of the
// evidence (ReloadEvidence) parses it again.
var ErrRunChanged = errors.New("evidence run changed on disk since it was loaded")

// Read reads the run's file again, through the file system it was loaded
// from, with a line index: for placing diagnostics and for features that
// show its text. It fails with ErrRunChanged when the file's content is not
// what was loaded.
func (r *EvidenceRun) Read() (*File, error) {
	src, err := r.fsys.ReadFile(r.Path)
	if err != nil {
		return nil, err
	}
	if sha256.Sum256(src) != r.digest {
		return nil, &fs.PathError{Op: "read", Path: r.Path, Err: ErrRunChanged}
	}
	return &File{Path: r.Path, Src: src, Index: source.NewIndex(src)}, nil
}

// File returns the loaded file with absolute path p, or nil. It is asked
// once per file with diagnostics and per related location, so an evidence
// run is found by a binary search of the evidence's sorted runs rather than
// by a walk over every run; a run's file is read again (EvidenceRun.Read),
// and is nil when it changed since it was loaded.
func (d *Dir) File(p string) *File {
	for _, f := range [...]*File{d.CharterFile, d.CriteriaFile, d.ReportFile, d.StateFile, d.CriterionStateFile} {
		if f != nil && f.Path == p {
			return f
		}
	}
	if r := d.run(p); r != nil {
		f, _ := r.Read()
		return f
	}
	return nil
}

// run returns the evidence run whose file is p, or nil.
func (d *Dir) run(p string) *EvidenceRun {
	if d.Evidence != nil {
		return d.Evidence.run(p)
	}
	for _, r := range d.Runs {
		if r.Path == p {
			return r
		}
	}
	return nil
}

// hasRun reports whether one of d's runs has the RelPath rel
// (slash-separated, clean): what criterion-state.json's lastEvidencePath
// is compared with, found without a set of every run's path.
func (d *Dir) hasRun(rel string) bool {
	if d.Evidence != nil {
		return d.Evidence.runAt(rel) != nil
	}
	for _, r := range d.Runs {
		if r.RelPath == rel {
			return true
		}
	}
	return false
}

// Digester is implemented by file systems that know the SHA-256 of a
// file's content without reading it (the workspace's, for a file it read
// and has had no change of since): ReloadEvidence then takes over an
// unchanged run without a read.
type Digester interface {
	Digest(path string) (sum [sha256.Size]byte, ok bool)
}

// Symlinker is implemented by file systems that can resolve symbolic links;
// vfs.OS is treated as one. Without it LoadDir refuses every symlink.
type Symlinker interface {
	EvalSymlinks(path string) (string, error)
}

// LoadDir reads the charter directory dir through fsys. It reads nothing
// outside dir: a symlink is followed only when it resolves inside dir.
func LoadDir(fsys vfs.FS, dir string) *Dir {
	return LoadDirWith(fsys, dir, LoadOptions{})
}

// LoadOptions let a caller that loads successive versions of a directory
// (the server, per keystroke) reuse work; the zero value parses everything
// from scratch. Results are the same either way.
type LoadOptions struct {
	// Criteria parses src, the content of the criteria.md at path (a
	// caller that parses successive versions reuses unchanged blocks).
	Criteria func(path string, src []byte) *Criteria
	// Index returns the line index of src, the content of path.
	Index func(path string, src []byte) *source.Index
	// Evidence, when set, is the directory's evidence already loaded
	// (LoadEvidence): work/ is then not read again.
	Evidence *Evidence
	// Prev, when set, is a load of the same directory before: a file of it
	// whose text is unchanged keeps its parse (a keystroke in criteria.md
	// does not parse criterion-state.json, state.json, charter.md and
	// REPORT.md again).
	Prev *Dir
}

// ProjectOf is the project of a .pi/charters/<id> directory: the folder
// holding its .pi; "" for any other directory.
func ProjectOf(dir string) string {
	if parent := filepath.Dir(dir); IsChartersFolder(parent) {
		return filepath.Dir(filepath.Dir(parent))
	}
	return ""
}

// IsChartersFolder reports whether dir is a project's .pi/charters, the
// folder that holds its charters.
func IsChartersFolder(dir string) bool {
	return filepath.Base(dir) == "charters" && filepath.Base(filepath.Dir(dir)) == ".pi"
}

// LoadDirWith is LoadDir with opts.
func LoadDirWith(fsys vfs.FS, dir string, opts LoadOptions) *Dir {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	l := newLoader(fsys, abs, opts)
	d := &Dir{Path: abs, ID: filepath.Base(abs), Project: ProjectOf(abs)}
	prev := opts.Prev
	if prev == nil {
		prev = &Dir{}
	}
	if d.CharterFile = l.read(abs, "charter.md"); sameText(d.CharterFile, prev.CharterFile) {
		d.Charter = prev.Charter
	} else if d.CharterFile != nil {
		d.Charter = ParseCharter(d.CharterFile.Src)
	}
	if d.CriteriaFile = l.read(abs, "criteria.md"); d.CriteriaFile != nil {
		if opts.Criteria != nil {
			d.CriteriaDoc = opts.Criteria(d.CriteriaFile.Path, d.CriteriaFile.Src)
		} else {
			d.CriteriaDoc = ParseCriteria(d.CriteriaFile.Src)
		}
		d.Criteria, d.CriteriaPath = d.CriteriaDoc, d.CriteriaFile.Path
	}
	if d.CriteriaFile != nil {
		d.ScaffoldSpan, d.Scaffold = CriteriaScaffold(d.CriteriaFile.Src)
	}
	// pi-charter src/infrastructure/store.ts@16cab0f:16-27. Without
	// charter.md upstream loads nothing at all; we keep criteria.md then, so
	// it can still be checked.
	if d.Charter != nil && (d.CriteriaFile == nil || d.Scaffold) {
		d.Criteria, d.CriteriaPath, d.Legacy = d.Charter.Criteria, d.CharterFile.Path, true
		if d.Criteria == nil {
			d.Criteria = &Criteria{Mode: ModeFlat}
		}
	}
	if d.Criteria == nil {
		d.Criteria = &Criteria{Mode: ModeFlat}
	}
	if d.ReportFile = l.read(abs, "REPORT.md"); sameText(d.ReportFile, prev.ReportFile) {
		d.Report = prev.Report
	} else if d.ReportFile != nil {
		d.Report = ParseReport(d.ReportFile.Src)
	}
	if d.StateFile = l.read(abs, "state.json"); sameText(d.StateFile, prev.StateFile) {
		d.State, d.StateProblems = prev.State, prev.StateProblems
	} else if d.StateFile != nil {
		d.State, d.StateProblems = ParseState(d.StateFile.Src)
	}
	if d.CriterionStateFile = l.read(abs, "criterion-state.json"); sameText(d.CriterionStateFile, prev.CriterionStateFile) {
		d.CriterionState, d.CriterionStateProblems = prev.CriterionState, prev.CriterionStateProblems
	} else if d.CriterionStateFile != nil {
		d.CriterionState, d.CriterionStateProblems = ParseCriterionState(d.CriterionStateFile.Src)
	}
	d.Evidence = opts.Evidence
	if d.Evidence == nil {
		n := len(l.errors)
		ev := &Evidence{}
		_ = l.loadRuns(context.Background(), ev, nil) // no deadline: never fails
		ev.Errors = append([]error(nil), l.errors[n:]...)
		l.errors = l.errors[:n]
		_ = ev.reduce(context.Background()) // never done: cannot fail
		d.Evidence = ev
	}
	d.Runs = d.Evidence.Runs
	d.Errors = append(append([]error(nil), l.errors...), d.Evidence.Errors...)
	return d
}

// sameText reports whether f, a file just read, holds the text of was, the
// same file as read before (parses are functions of the text alone).
func sameText(f, was *File) bool {
	return f != nil && was != nil && f.Path == was.Path && bytes.Equal(f.Src, was.Src)
}

type loader struct {
	fsys vfs.FS
	opts LoadOptions
	dir  string // the charter directory, absolute
	root string // dir with symlinks resolved, when resolvable
	// last is the last folder listed, to see which entries are symlinks:
	// the loader asks about one folder at a time, and a history's hundred
	// thousand run folders are listed once each, not held.
	last struct {
		dir     string
		entries []fs.DirEntry
		byName  map[string]fs.DirEntry // for a large folder
	}
	errors []error
	intern interner // the evidence's repeated strings
	// progress, when set, is told how many runs are loaded of how many.
	progress func(done, total int)
}

func newLoader(fsys vfs.FS, dir string, opts LoadOptions) *loader {
	l := &loader{fsys: fsys, opts: opts, dir: dir}
	l.root = l.resolve(dir)
	return l
}

func (l *loader) resolve(p string) string {
	switch s := l.fsys.(type) {
	case Symlinker:
		if r, err := s.EvalSymlinks(p); err == nil {
			return r
		}
	default:
		if l.fsys == vfs.OS {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return r
			}
		}
	}
	return p
}

// entries is dir's listing (nil when it cannot be listed).
func (l *loader) entries(dir string) []fs.DirEntry {
	if l.last.entries != nil && l.last.dir == dir {
		return l.last.entries
	}
	es, err := l.fsys.ReadDir(dir)
	if err != nil || es == nil {
		es = []fs.DirEntry{}
	}
	l.last.dir, l.last.entries, l.last.byName = dir, es, nil
	return es
}

// entry is dir's entry name, if it has one.
func (l *loader) entry(dir, name string) (fs.DirEntry, bool) {
	es := l.entries(dir)
	if len(es) <= 32 {
		for _, e := range es {
			if e.Name() == name {
				return e, true
			}
		}
		return nil, false
	}
	if l.last.byName == nil {
		l.last.byName = make(map[string]fs.DirEntry, len(es))
		for _, e := range es {
			l.last.byName[e.Name()] = e
		}
	}
	e, ok := l.last.byName[name]
	return e, ok
}

// allowed reports whether dir/name may be read: not a symlink, or one that
// resolves inside the charter directory.
func (l *loader) allowed(dir, name string) bool {
	e, ok := l.entry(dir, name)
	return !ok || l.allowedEntry(dir, e, &l.errors)
}

// allowedEntry is allowed for e, an entry of dir; a link that leads out is
// said in errs.
func (l *loader) allowedEntry(dir string, e fs.DirEntry, errs *[]error) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return true
	}
	p := vfs.Join(dir, e.Name())
	target := l.resolve(p)
	if target == p || !vfs.Below(l.root, target) {
		*errs = append(*errs, &fs.PathError{Op: "read", Path: p, Err: errors.New("symlink leaves the charter directory; not read")})
		return false
	}
	return true
}

func (l *loader) read(dir, name string) *File {
	if !l.allowed(dir, name) {
		return nil
	}
	p := vfs.Join(dir, name)
	src, err := l.fsys.ReadFile(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.errors = append(l.errors, err)
		}
		return nil
	}
	if l.opts.Index != nil {
		return &File{Path: p, Src: src, Index: l.opts.Index(p, src)}
	}
	return &File{Path: p, Src: src, Index: source.NewIndex(src)}
}

// subdir reports whether name is one of subdirs(dir).
func (l *loader) subdir(dir, name string) bool {
	e, ok := l.entry(dir, name)
	return ok && (e.IsDir() || e.Type()&fs.ModeSymlink != 0) && l.allowedEntry(dir, e, &l.errors)
}

func (l *loader) subdirs(dir string) []string {
	var out []string
	for _, e := range l.entries(dir) {
		if (e.IsDir() || e.Type()&fs.ModeSymlink != 0) && l.allowedEntry(dir, e, &l.errors) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// loadRuns reads every work/<segment>/evidence/<stamp>/evidence.json into
// ev.Runs, in order. The runs are read and parsed on as many goroutines as
// there are processors, each into its place, checking ctx between runs. A
// run of prev (nil: none) whose file holds the same bytes is taken as it
// is, not parsed again.
func (l *loader) loadRuns(ctx context.Context, ev *Evidence, prev *Evidence) error {
	work := vfs.Join(l.dir, "work")
	if !l.allowed(l.dir, "work") {
		return nil
	}
	type segment struct {
		name   string
		stamps []string
	}
	var segs []segment
	n := 0
	for _, seg := range l.subdirs(work) {
		segDir := vfs.Join(work, seg)
		if !l.allowed(segDir, "evidence") {
			continue
		}
		stamps := l.subdirs(vfs.Join(segDir, "evidence"))
		segs = append(segs, segment{l.intern.str(seg), stamps})
		n += len(stamps)
	}
	jobs := make([]runJob, 0, n)
	for _, seg := range segs {
		for _, stamp := range seg.stamps {
			jobs = append(jobs, runJob{seg: seg.name, stamp: stamp})
		}
	}
	segs = nil // the jobs hold their names
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []jobError
	workers := min(runtime.GOMAXPROCS(0), len(jobs)/64+1)
	load := func() {
		in := &interner{}
		if workers == 1 {
			in.first = len(jobs) // a run has one row, mostly
		}
		var found []jobError
		for i := int(next.Add(1) - 1); i < len(jobs) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
			var jerrs []error
			jobs[i].run = l.loadRun(jobs[i].seg, jobs[i].stamp, prev, in, &jerrs)
			for _, err := range jerrs {
				found = append(found, jobError{i, err})
			}
			if l.progress != nil && (i+1)%256 == 0 {
				l.progress(i+1, len(jobs))
			}
		}
		mu.Lock()
		errs = append(errs, found...)
		mu.Unlock()
	}
	// A few runs are loaded on the caller's goroutine: a new one would
	// grow its stack again for each charter (most have a handful of runs).
	if workers == 1 {
		load()
	} else {
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				load()
			}()
		}
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if l.progress != nil {
		l.progress(len(jobs), len(jobs))
	}
	// In the order of the runs, each run's in the order found.
	slices.SortStableFunc(errs, func(a, b jobError) int { return a.job - b.job })
	for _, e := range errs {
		l.errors = append(l.errors, e.err)
	}
	n = 0
	for i := range jobs {
		if jobs[i].run != nil {
			n++
		}
	}
	ev.Runs = make([]*EvidenceRun, 0, n)
	for i := range jobs {
		if jobs[i].run != nil {
			ev.Runs = append(ev.Runs, jobs[i].run)
		}
	}
	return nil
}

// runJob is one run to load (work/<seg>/evidence/<stamp>), and the run
// loaded.
type runJob struct {
	seg, stamp string
	run        *EvidenceRun
}

// jobError is an error loading the run of jobs[job].
type jobError struct {
	job int
	err error
}

// loadRun loads the run work/<seg>/evidence/<stamp> of the charter
// directory, on one of loadRuns' goroutines: nothing of l is changed,
// strings are interned in in, and errors are added to errs. It returns
// nil when there is no run to keep.
func (l *loader) loadRun(seg, stamp string, prev *Evidence, in *interner, errs *[]error) *EvidenceRun {
	// The file's path is the one string made for a run: its folder, stamp
	// and path relative to the charter directory are parts of it.
	const file = "evidence.json"
	sep := string(filepath.Separator)
	base := strings.TrimSuffix(l.dir, sep) // the root: "/" + "work"
	p := base + sep + "work" + sep + seg + sep + "evidence" + sep + stamp + sep + file
	dir := p[:len(p)-len(sep+file)]
	es, _ := l.fsys.ReadDir(dir)
	for _, e := range es {
		if e.Name() == file && !l.allowedEntry(dir, e, errs) {
			return nil
		}
	}
	dg, digests := l.fsys.(Digester)
	if digests && prev != nil {
		if sum, ok := dg.Digest(p); ok {
			if old := prev.sameRun(p, sum); old != nil {
				run := *old // as below
				run.fsys = l.fsys
				return &run
			}
		}
	}
	src, err := l.fsys.ReadFile(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*errs = append(*errs, err)
		}
		return nil
	}
	// Hashed here rather than asked of the file system (Digester): a run
	// of a few hundred bytes hashes faster than its path is looked up,
	// and the parse just read all of it anyway.
	digest := sha256.Sum256(src)
	if old := prev.sameRun(p, digest); old != nil {
		// Its rows are shared; the copy reads through this load's file
		// system, so it does not hold the previous one (a snapshot) alive.
		run := *old
		run.fsys = l.fsys
		return &run
	}
	run := in.run()
	*run = EvidenceRun{Segment: seg, Stamp: dir[len(dir)-len(stamp):], Path: p, fsys: l.fsys, digest: digest}
	if sep == "/" {
		run.RelPath = p[len(base)+len(sep):]
	} else {
		run.RelPath = "work/" + seg + "/evidence/" + stamp + "/" + file
	}
	run.Rows, run.Problems = parseEvidence(src, in)
	return run
}
