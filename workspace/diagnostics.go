package workspace

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

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
	path = filepath.Clean(path)
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
	groups := groupByFolder(paths)
	// By path, so that a folder's groups are checked together and the
	// folder released soon after (the order results come in does not
	// show: each is handed over with its index).
	slices.SortFunc(groups, func(a, b fileGroup) int { return strings.Compare(a.key, b.key) })
	var left *pending
	if release {
		left = newPending(groups)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, group := range groups {
		// A large group (a history of evidence runs) is checked in parts
		// on all the goroutines: its files share the model, built once by
		// whichever part asks first, and are checked apart.
		parts := (len(group.files) + filesPerPart - 1) / filesPerPart
		var todo atomic.Int64
		todo.Store(int64(parts))
		for part := range parts {
			files := group.files[part*filesPerPart : min(len(group.files), (part+1)*filesPerPart)]
			g.Go(func() error {
				for _, i := range files {
					ds, err := s.diagnostics(ctx, paths[i], !release)
					if err != nil {
						return err
					}
					each(i, ds)
				}
				if left != nil && todo.Add(-1) == 0 {
					for _, dir := range left.done(group.key) {
						s.Release(dir)
					}
				}
				return nil
			})
		}
	}
	return g.Wait()
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
	at := map[string]int{}
	for i, p := range paths {
		key := analysis.CharterFolder(filepath.Clean(p))
		if key == "" {
			key = filepath.Clean(p)
		}
		n, ok := at[key]
		if !ok {
			n = len(groups)
			at[key] = n
			groups = append(groups, fileGroup{key: key})
		}
		groups[n].files = append(groups[n].files, i)
	}
	return groups
}

// pending counts, for each folder above a group, the groups below it not
// done yet.
type pending struct {
	mu   sync.Mutex
	left map[string]int
}

func newPending(groups []fileGroup) *pending {
	p := &pending{left: map[string]int{}}
	for _, g := range groups {
		for dir := filepath.Dir(g.key); ; dir = filepath.Dir(dir) {
			p.left[dir]++
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return p
}

// done marks the group at key done and returns what may be released now:
// key, and the folders above it with no group left below them, the
// deepest first.
func (p *pending) done(key string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []string{key}
	for dir := filepath.Dir(key); ; dir = filepath.Dir(dir) {
		p.left[dir]--
		if p.left[dir] == 0 {
			out = append(out, dir)
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return out
}
