package pi

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"

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

// EvidenceRun is one work/<segment>/evidence/<stamp>/evidence.json.
type EvidenceRun struct {
	Segment  string
	Stamp    string
	RelPath  string // relative to the charter dir, slash-separated
	File     *File
	Rows     []EvidenceRow
	Problems []JSONProblem
}

// File returns the loaded file with absolute path p, or nil. It is asked
// once per diagnostic and related location, so an evidence run is found by
// its path in the evidence's index rather than by a walk over every run.
func (d *Dir) File(p string) *File {
	for _, f := range [...]*File{d.CharterFile, d.CriteriaFile, d.ReportFile, d.StateFile, d.CriterionStateFile} {
		if f != nil && f.Path == p {
			return f
		}
	}
	if d.Evidence != nil && d.Evidence.byPath != nil {
		if r := d.Evidence.byPath[p]; r != nil {
			return r.File
		}
		return nil
	}
	for _, r := range d.Runs {
		if r.File.Path == p {
			return r.File
		}
	}
	return nil
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
}

// LoadDirWith is LoadDir with opts.
func LoadDirWith(fsys vfs.FS, dir string, opts LoadOptions) *Dir {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	l := newLoader(fsys, abs, opts)
	d := &Dir{Path: abs, ID: filepath.Base(abs)}
	if parent := filepath.Dir(abs); filepath.Base(parent) == "charters" && filepath.Base(filepath.Dir(parent)) == ".pi" {
		d.Project = filepath.Dir(filepath.Dir(parent))
	}
	if d.CharterFile = l.read(abs, "charter.md"); d.CharterFile != nil {
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
	if d.ReportFile = l.read(abs, "REPORT.md"); d.ReportFile != nil {
		d.Report = ParseReport(d.ReportFile.Src)
	}
	if d.StateFile = l.read(abs, "state.json"); d.StateFile != nil {
		d.State, d.StateProblems = ParseState(d.StateFile.Src)
	}
	if d.CriterionStateFile = l.read(abs, "criterion-state.json"); d.CriterionStateFile != nil {
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

type loader struct {
	fsys vfs.FS
	opts LoadOptions
	dir  string // the charter directory, absolute
	root string // dir with symlinks resolved, when resolvable
	// listed caches directory listings, to see which entries are symlinks.
	listed map[string]map[string]fs.DirEntry
	errors []error
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

func (l *loader) entries(dir string) map[string]fs.DirEntry {
	if l.listed == nil {
		l.listed = map[string]map[string]fs.DirEntry{}
	}
	if m, ok := l.listed[dir]; ok {
		return m
	}
	m := map[string]fs.DirEntry{}
	if es, err := l.fsys.ReadDir(dir); err == nil {
		for _, e := range es {
			m[e.Name()] = e
		}
	}
	l.listed[dir] = m
	return m
}

// allowed reports whether dir/name may be read: not a symlink, or one that
// resolves inside the charter directory.
func (l *loader) allowed(dir, name string) bool {
	e, ok := l.entries(dir)[name]
	if !ok || e.Type()&fs.ModeSymlink == 0 {
		return true
	}
	p := filepath.Join(dir, name)
	target := l.resolve(p)
	if target == p || !vfs.Below(l.root, target) {
		l.errors = append(l.errors, &fs.PathError{Op: "read", Path: p, Err: errors.New("symlink leaves the charter directory; not read")})
		return false
	}
	return true
}

func (l *loader) read(dir, name string) *File {
	if !l.allowed(dir, name) {
		return nil
	}
	p := filepath.Join(dir, name)
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

func (l *loader) subdirs(dir string) []string {
	var out []string
	for name, e := range l.entries(dir) {
		if (e.IsDir() || e.Type()&fs.ModeSymlink != 0) && l.allowed(dir, name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// loadRuns reads every work/<segment>/evidence/<stamp>/evidence.json into
// ev.Runs, checking ctx between runs. A run of prev (nil: none) whose file
// holds the same bytes is taken as it is, not parsed again.
func (l *loader) loadRuns(ctx context.Context, ev *Evidence, prev *Evidence) error {
	work := filepath.Join(l.dir, "work")
	if !l.allowed(l.dir, "work") {
		return nil
	}
	for _, seg := range l.subdirs(work) {
		evDir := filepath.Join(work, seg, "evidence")
		if !l.allowed(filepath.Join(work, seg), "evidence") {
			continue
		}
		for _, stamp := range l.subdirs(evDir) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if old := prev.sameRun(l, filepath.Join(evDir, stamp, "evidence.json")); old != nil {
				ev.Runs = append(ev.Runs, old)
				continue
			}
			f := l.read(filepath.Join(evDir, stamp), "evidence.json")
			if f == nil {
				continue
			}
			run := &EvidenceRun{Segment: seg, Stamp: stamp, File: f,
				RelPath: "work/" + seg + "/evidence/" + stamp + "/evidence.json"}
			run.Rows, run.Problems = ParseEvidence(f.Src)
			ev.Runs = append(ev.Runs, run)
		}
	}
	return nil
}
