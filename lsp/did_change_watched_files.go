package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// DidChangeWatchedFiles makes the next snapshot from files changed on disk
// (evidence, criterion-state.json, a source file, the project
// configuration): the workspace forgets what it read of them and what it
// derived from that, and the open documents are re-checked (those the
// change cannot affect cost a lookup). It runs in wire order (handler.go),
// so an edit sent after it is checked with the change; re-registering the
// file watchers waits on the client, and runs in the background.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	paths := make([]string, 0, len(params.Changes))
	config := false
	for _, ev := range params.Changes {
		if p, err := filePath(ev.URI); err == nil {
			paths = append(paths, p)
			config = config || analysis.Classify(p, nil) == analysis.KindConfig
		}
	}
	if len(paths) == 0 {
		return nil
	}
	s.log.Debug("files changed on disk", zap.Int("files", len(paths)))
	s.diags.schedule(s.update(workspace.Change{Disk: paths}), "")
	s.refreshViews() // lenses and hints read the disk too (refresh.go)
	if config {
		s.inBackground("re-registering file watchers", s.updateWatchers) // the source folders may have changed
	}
	return nil
}
