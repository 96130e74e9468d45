package workspace

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

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
	path = filepath.Clean(path)
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
		return s.piDiagnostics(ctx, dir, path)
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
