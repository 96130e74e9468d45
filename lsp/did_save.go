package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// DidSave tells the workspace the file changed on disk (its time did, and
// what other checks read from disk only through the open document, which
// already has it).
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return err
	}
	s.diags.schedule(s.update(workspace.Change{Disk: []string{path}}), "")
	return nil
}
