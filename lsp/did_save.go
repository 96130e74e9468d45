package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// DidSave re-checks the saved document's dependents: a saved file changes
// what other checks read from disk only through the overlay, which already
// has it, so nothing but file times can differ; re-check to pick those up.
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	if d := s.sess.get(params.TextDocument.URI); d != nil {
		s.documentChanged(d)
	}
	return nil
}
