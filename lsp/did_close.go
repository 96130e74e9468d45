package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// DidClose drops the document from the next snapshot and clears its
// diagnostics. The disk version may differ from the closed buffer, so the
// documents that depend on it are re-checked.
func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	wasCharter := isCharter(s.ws.Snapshot().File(filePathOr(params.TextDocument.URI)))
	path, ok := s.docs.close(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.diags.clear(params.TextDocument.URI, wasCharter)
	s.diags.schedule(s.update(workspace.Change{Closed: []string{path}}), "")
	return nil
}
