package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// DidClose drops the document from the overlay and clears its diagnostics.
// The disk version may differ from the closed buffer, so the rest of its
// charter directory is re-checked.
func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	d := s.sess.close(params.TextDocument.URI)
	if d == nil {
		return nil
	}
	if d.IsCharter() {
		s.diags.clear(d.URI)
	}
	s.cache.Forget(d.Path)
	if s.isProjectConfig(d.Path) {
		s.loadProjectConfig()
		s.diags.scheduleAll()
	} else if dir := analysis.CharterFolder(d.Path); dir != "" {
		for _, other := range s.sess.charterDirDocs(dir) {
			s.diags.schedule(other.URI)
		}
	}
	return nil
}
