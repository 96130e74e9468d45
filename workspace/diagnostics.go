package workspace

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Diagnostics returns path's diagnostics in this snapshot: located in the
// snapshot's version of the file, filtered by its suppression comments,
// with the configured severities. A file that is not a charter file has
// none. Each file's diagnostics are computed once per snapshot and carried
// over while nothing they depend on changes.
func (s *Snapshot) Diagnostics(ctx context.Context, path string) ([]diag.Diagnostic, error) {
	return s.diagnostics(ctx, path, true)
}

// diagnostics is Diagnostics; without memo, a file's diagnostics not
// computed yet are computed for this caller alone and not kept (its
// charter's model still is).
func (s *Snapshot) diagnostics(ctx context.Context, path string, memo bool) ([]diag.Diagnostic, error) {
	path = vfs.Clean(path)
	if dir := analysis.PiCharterDir(path); dir != "" && isEvidenceRun(path) && s.docs[path] == nil {
		// A run the evidence loaded was read, and is a readable, regular
		// file within the limit: its check needs it no more (what is
		// below would read it again to see just that).
		ev, err := s.charterFor(dir).evidence.get(ctx)
		if err != nil {
			return nil, err
		}
		if ev.Loaded(path) {
			return s.piDiagnostics(ctx, dir, path, memo)
		}
	}
	f := s.fileOnce(path)
	kind := f.Kind()
	switch {
	case kind == analysis.KindNone:
		return nil, nil
	case f.TooLarge() || f.Err != nil && !errors.Is(f.Err, fs.ErrNotExist):
		// Said on the file itself; its charter's other files are checked.
		err := f.Err
		if err == nil { // an open document over the limit
			err = &vfs.TooLargeError{Size: int64(len(f.Text)), Limit: analysis.MaxFileSize}
		}
		cfg, _ := s.Config(path)
		return analysis.Finish([]diag.Diagnostic{pi.ReadProblem(path, err)}, path, source.NewIndex(nil), cfg), nil
	case f.Err != nil:
		return nil, nil // a missing file has nothing to say
	case kind == analysis.KindOtherCharter:
		return nil, nil
	}
	if dir := analysis.PiCharterDir(path); dir != "" && kind != analysis.KindConfig {
		return s.piDiagnostics(ctx, dir, path, memo)
	}
	if dir := charterfile.DirOf(path); dir != "" {
		switch kind {
		case analysis.KindChartersCharter, analysis.KindChartersState, analysis.KindChartersEvents:
			return s.folderDiagnostics(ctx, dir, f)
		}
	}
	s.mu.Lock()
	pr := s.single[path]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) ([]diag.Diagnostic, error) {
			s.sess.checks.Add(1)
			cfg, _ := s.Config(path)
			var ds []diag.Diagnostic
			switch kind {
			case analysis.KindConfig:
				ds = analysis.CheckConfigFile(f.Text)
			case analysis.KindRP1Charter:
				ch, err := f.rp1Under(ctx)
				if err != nil {
					return nil, err
				}
				if ds, err = analysis.CheckRP1(ctx, ch, cfg); err != nil {
					return nil, err
				}
			}
			return analysis.Finish(ds, path, f.Index(), cfg), nil
		})
		s.single[path] = pr
	}
	s.mu.Unlock()
	return pr.get(ctx)
}

// Charters lists the charters under the workspace folders, found once and
// again only when a charter file or folder appears or disappears.
func (s *Snapshot) Charters(ctx context.Context) (analysis.Workspace, error) {
	s.mu.Lock()
	if s.found == nil {
		roots := s.Roots()
		s.found = newPromise(s.sess.busy, func(ctx context.Context) (analysis.Workspace, error) {
			var all analysis.Workspace
			for _, r := range roots {
				ws, _ := analysis.Discover(ctx, s.FS(), r) // an unreadable root holds nothing
				if err := ctx.Err(); err != nil {
					return all, err
				}
				all.RP1Charters = append(all.RP1Charters, ws.RP1Charters...)
				all.OtherCharters = append(all.OtherCharters, ws.OtherCharters...)
				all.PiCharters = append(all.PiCharters, ws.PiCharters...)
				all.Charters = append(all.Charters, ws.Charters...)
			}
			return all, nil
		})
	}
	pr := s.found
	s.mu.Unlock()
	return pr.get(ctx)
}

// folderDiagnostics are the diagnostics of f, a file of the .charters/<id>
// folder dir, whose files are checked together once per change of the
// folder (its view's).
func (s *Snapshot) folderDiagnostics(ctx context.Context, dir string, f *File) ([]diag.Diagnostic, error) {
	v, err := s.ChartersView(ctx, dir)
	if err != nil {
		return nil, err
	}
	byFile, err := v.DiagnosticsContext(ctx)
	if err != nil {
		return nil, err
	}
	cfg, _ := s.Config(f.Path)
	ds := append([]diag.Diagnostic(nil), byFile[f.Path]...)
	return analysis.Finish(ds, f.Path, f.Index(), cfg), nil
}

// DiagnosticsOf computes the diagnostics of each of paths (Diagnostics)
// on as many goroutines as there are processors (GOMAXPROCS), the files of
// one charter folder on one of them (they share its model), and hands each
// to each with its index, on the goroutine that computed it. The first
// error stops the rest.
//
// With release, a charter folder is released (Release) once its files are
// handed over, and each folder above once no file below it is left: for a
// caller that asks about each file once (check), whose memory then stays
// flat in the number of charters. each asks what it needs of a file before
// it returns (its configuration, say): afterwards it would be read again.
func (s *Snapshot) DiagnosticsOf(ctx context.Context, paths []string, release bool, each func(i int, ds []diag.Diagnostic)) error {
	st := s.stream(ctx, release, true, func(i int, _ string, ds []diag.Diagnostic) { each(i, ds) })
	st.Add(paths...)
	return st.Wait()
}

// A Stream is DiagnosticsOf for a caller that finds its files as it goes
// (check, walking a folder): it checks each file handed to it (Add) as it
// comes, and, releasing, lets a folder go once the caller is done with it
// (Walked) and nothing below it is left to check, so that what is held is
// the charters in flight, not the tree. Its methods may be called from
// several goroutines at once.
type Stream struct {
	s       *Snapshot
	ctx     context.Context // the caller's: the checks run under it
	stopped context.Context // done once a check failed, or ctx is
	stop    context.CancelFunc
	each    func(i int, path string, ds []diag.Diagnostic)
	release bool
	jobs    chan func() // the checks to come, a few queued (queuedPerCore)
	workers sync.WaitGroup

	mu     sync.Mutex
	err    error                  // the first check that failed
	n      int                    // the files added
	walked bool                   // every folder is done with (Walked)
	above  map[string]folderState // releasing: the folders above a charter not checked yet
}

// folderState is what a stream knows of a folder above the files added.
type folderState struct {
	left   int  // groups below it not checked yet
	walked bool // nothing more below it will be added
}

// Stream checks files as they are added (Add), handing each file's
// diagnostics to each with the file's index in the order added and its
// path, on the goroutine that computed them. With release, what the
// session holds under a charter folder is released once it is checked,
// and each folder above once the caller said it is done with it (Walked)
// and nothing below it is left; Wait releases the rest. The first error
// stops the rest (Context is then done).
func (s *Snapshot) Stream(ctx context.Context, release bool, each func(i int, path string, ds []diag.Diagnostic)) *Stream {
	return s.stream(ctx, release, false, each)
}

func (s *Snapshot) stream(ctx context.Context, release, walked bool, each func(i int, path string, ds []diag.Diagnostic)) *Stream {
	stopped, stop := context.WithCancel(ctx)
	st := &Stream{s: s, ctx: ctx, stopped: stopped, stop: stop, each: each, release: release, walked: walked,
		jobs: make(chan func(), queuedPerCore*runtime.GOMAXPROCS(0))}
	if release {
		st.above = map[string]folderState{}
	}
	// As many goroutines as processors, each checking one charter at a
	// time, for the whole stream: a goroutine's stack, grown by the first
	// check, serves the next.
	for range runtime.GOMAXPROCS(0) {
		st.workers.Add(1)
		go func() {
			defer st.workers.Done()
			for job := range st.jobs {
				job()
			}
		}()
	}
	return st
}

// Context is done once a check failed, or the stream's context is.
func (st *Stream) Context() context.Context { return st.stopped }

// fail keeps the first error and stops the rest.
func (st *Stream) fail(err error) {
	st.mu.Lock()
	if st.err == nil {
		st.err = err
	}
	st.mu.Unlock()
	st.stop()
}

// queuedPerCore is how many checks a stream queues per processor beyond
// those running. With none, a walker that found a charter waited for a
// checker to be free, and a checker that finished waited for a walker to
// find the next: check on a monorepo had one goroutine of its four busy a
// fifth of the time on two cores (a tenth with a queue of eight). What is
// queued is held until it is checked: a few charter folders.
const queuedPerCore = 4

// Add checks paths, the files of one charter folder or more, in path order
// of their folders; it waits while every goroutine is busy and the queue
// is full. A folder the caller said it is done with (Walked) gets nothing
// more below it.
func (st *Stream) Add(paths ...string) {
	groups := groupByFolder(paths)
	// By path, so that a folder's groups are checked together and the
	// folder released soon after (the order results come in does not
	// show: each is handed over with its index).
	slices.SortFunc(groups, func(a, b fileGroup) int { return strings.Compare(a.key, b.key) })
	st.mu.Lock()
	first := st.n
	st.n += len(paths)
	if st.release {
		// Every group is counted before any is checked: a folder above
		// two of them waits for both.
		for _, group := range groups {
			for dir := vfs.Dir(group.key); ; dir = vfs.Dir(dir) {
				f := st.above[dir]
				f.left++
				st.above[dir] = f
				if vfs.Dir(dir) == dir {
					break
				}
			}
		}
	}
	st.mu.Unlock()
	for _, group := range groups {
		// A large group (a history of evidence runs) is checked in parts
		// on all the goroutines: its files share the model, built once by
		// whichever part asks first, and are checked apart.
		parts := (len(group.files) + filesPerPart - 1) / filesPerPart
		var todo atomic.Int64
		todo.Store(int64(parts))
		for part := range parts {
			files := group.files[part*filesPerPart : min(len(group.files), (part+1)*filesPerPart)]
			st.jobs <- func() {
				for _, i := range files {
					if st.stopped.Err() != nil {
						return
					}
					ds, err := st.s.diagnostics(st.ctx, paths[i], !st.release)
					if err != nil {
						st.fail(err)
						return
					}
					st.each(first+i, paths[i], ds)
				}
				if st.release && todo.Add(-1) == 0 {
					st.checked(group.key)
				}
			}
		}
	}
}

// checked releases the group at key, checked, and the folders above it
// that nothing is left to check below, the deepest first.
func (st *Stream) checked(key string) {
	free := []string{key}
	st.mu.Lock()
	for dir := vfs.Dir(key); ; dir = vfs.Dir(dir) {
		f := st.above[dir]
		f.left--
		if f.left == 0 && (f.walked || st.walked) {
			free = append(free, dir)
			delete(st.above, dir)
		} else {
			st.above[dir] = f
		}
		if vfs.Dir(dir) == dir {
			break
		}
	}
	st.mu.Unlock()
	for _, dir := range free {
		st.s.Release(dir)
	}
}

// Walked says nothing more below dir will be added: once what is below
// it is checked, a releasing stream lets it go.
func (st *Stream) Walked(dir string) {
	if !st.release {
		return
	}
	st.mu.Lock()
	f, ok := st.above[dir]
	free := ok && f.left == 0
	switch {
	case free:
		delete(st.above, dir)
	case ok:
		f.walked = true
		st.above[dir] = f
	}
	st.mu.Unlock()
	if free {
		st.s.Release(dir)
	}
}

// Wait waits for the checks of everything added, nothing more to come,
// and returns the first error. A releasing stream then lets go of every
// folder above what it checked.
func (st *Stream) Wait() error {
	st.mu.Lock()
	st.walked = true
	st.mu.Unlock()
	close(st.jobs)
	st.workers.Wait()
	st.stop()
	st.mu.Lock()
	err := st.err
	st.mu.Unlock()
	if err == nil {
		err = st.ctx.Err()
	}
	if !st.release {
		return err
	}
	st.mu.Lock()
	rest := slices.Sorted(maps.Keys(st.above))
	st.above = map[string]folderState{}
	st.mu.Unlock()
	// The deepest first (a folder sorts before what is below it).
	for _, dir := range slices.Backward(rest) {
		st.s.Release(dir)
	}
	return err
}

// filesPerPart is how many files of one charter folder one goroutine checks
// at a time.
const filesPerPart = 512

// fileGroup is files that share a charter folder (key), or one file in
// none (its path).
type fileGroup struct {
	key   string
	files []int // indexes into the paths
}

// groupByFolder groups the indexes of paths by charter folder (a file in
// none is a group of its own), in the order each group first appears.
func groupByFolder(paths []string) []fileGroup {
	var groups []fileGroup
	var at map[string]int // made once there are many groups; a few are searched
	for i, p := range paths {
		key := analysis.CharterFolder(vfs.Clean(p))
		if key == "" {
			key = vfs.Clean(p)
		}
		n := -1
		if at != nil {
			if k, ok := at[key]; ok {
				n = k
			}
		} else {
			n = slices.IndexFunc(groups, func(g fileGroup) bool { return g.key == key })
		}
		if n < 0 {
			n = len(groups)
			g := fileGroup{key: key}
			if n == 0 {
				// Most calls are one charter folder's files.
				g.files = make([]int, 0, len(paths))
			}
			groups = append(groups, g)
			switch {
			case at != nil:
				at[key] = n
			case len(groups) > 16:
				at = make(map[string]int, len(groups))
				for j, g := range groups {
					at[g.key] = j
				}
			}
		}
		groups[n].files = append(groups[n].files, i)
	}
	return groups
}
