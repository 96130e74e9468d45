package lsp

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// DidChangeWatchedFiles re-checks the open documents a change on disk
// affects: a file of their pi-charter directory (evidence,
// criterion-state.json, …) or a file under their project's freshness
// folders. A change to the project configuration re-reads it and re-checks
// everything.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	cfg := s.Config()
	s.bound.Forget() // a folder may have become a link
	affected := map[uri.URI]bool{}
	configChanged := false
	for _, ev := range params.Changes {
		path, err := filePath(ev.URI)
		if err != nil {
			continue
		}
		if s.isProjectConfig(path) {
			configChanged = true
			continue
		}
		if analysis.PiCharterDir(path) == "" {
			// A source file (the other watchers are charter files): the
			// freshness baseline is re-read on the next check, once.
			s.cache.SourcesChanged("")
		} else if ev.Type == protocol.FileChangeTypeDeleted {
			s.cache.Forget(path)
		}
		for _, d := range s.sess.all() {
			if d.IsCharter() && d.Path != path && affects(path, d.Path, cfg) {
				affected[d.URI] = true
			}
		}
	}
	if configChanged {
		s.log.Info("project configuration changed on disk")
		s.loadProjectConfig()
		s.updateWatchers(ctx)
		s.diags.scheduleAll()
		return nil
	}
	for u := range affected {
		s.diags.schedule(u)
	}
	if len(affected) > 0 {
		s.log.Debug("re-checking after disk changes", zap.Int("documents", len(affected)))
	}
	return nil
}

// affects reports whether a change to changed can alter the diagnostics of
// the open document doc.
func affects(changed, doc string, cfg analysis.Config) bool {
	dir := analysis.PiCharterDir(doc)
	if dir == "" {
		return false // rp1 charters depend only on themselves
	}
	if analysis.PiCharterDir(changed) == dir {
		return true
	}
	// The project is the folder that holds .pi/charters/<id>.
	project := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
	for _, src := range cfg.Sources() {
		root := filepath.Join(project, src)
		if rel, err := filepath.Rel(root, changed); err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsWithDotDot(rel) {
			return true
		}
	}
	return false
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}
