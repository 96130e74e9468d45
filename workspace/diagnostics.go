package workspace

import (
	"context"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Diagnostics returns path's diagnostics in this snapshot: located in the
// snapshot's version of the file, filtered by its suppression comments,
// with the configured severities. A file that is not a charter file has
// none. Each file's diagnostics are computed once per snapshot and carried
// over while nothing they depend on changes.
func (s *Snapshot) Diagnostics(ctx context.Context, path string) ([]diag.Diagnostic, error) {
	path = filepath.Clean(path)
	f := s.File(path)
	kind := f.Kind()
	switch {
	case kind == analysis.KindNone:
		return nil, nil
	case f.TooLarge():
		cfg, _ := s.Config(path)
		size := max(f.Size, int64(len(f.Text)))
		return analysis.Finish(analysis.CheckUnreadable(path, size, ErrTooLarge), path, source.NewIndex(nil), cfg), nil
	case f.Err != nil:
		cfg, _ := s.Config(path)
		return analysis.Finish(analysis.CheckUnreadable(path, f.Size, f.Err), path, source.NewIndex(nil), cfg), nil
	case kind == analysis.KindOtherCharter && s.sess.check == nil:
		return nil, nil
	}
	if dir := analysis.PiCharterDir(path); dir != "" && kind != analysis.KindConfig {
		return s.piDiagnostics(ctx, dir, path)
	}
	s.mu.Lock()
	pr := s.single[path]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) ([]diag.Diagnostic, error) {
			cfg, _ := s.Config(path)
			if s.sess.check != nil {
				return s.customCheck(f, cfg)
			}
			var ds []diag.Diagnostic
			switch kind {
			case analysis.KindConfig:
				ds = analysis.CheckConfigFile(f.Text)
			case analysis.KindRP1Charter:
				ds = analysis.CheckRP1(f.RP1(), cfg)
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
			}
			return all, nil
		})
	}
	pr := s.found
	s.mu.Unlock()
	return pr.get(ctx)
}

// customCheck runs the session's Check on f, keeping the diagnostics of f
// itself, located and sorted.
func (s *Snapshot) customCheck(f *File, cfg analysis.Config) ([]diag.Diagnostic, error) {
	ds, err := s.sess.check(s.FS(), f.Path, cfg)
	if err != nil {
		return nil, err
	}
	mine := ds[:0:0]
	for _, d := range ds {
		if d.File == "" {
			one := []diag.Diagnostic{d}
			diag.Locate(one, f.Path, f.Index())
			d = one[0]
		}
		if d.File == f.Path {
			mine = append(mine, d)
		}
	}
	diag.Sort(mine)
	return mine, nil
}
