package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// DidOpen adds the document to a new snapshot, over the disk, and checks
// it if it is a charter file. Charter files are recognised by path and
// content whatever language id the editor sends; other documents are kept
// (a check may read them) but get no diagnostics at all.
func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	path, err := filePath(td.URI)
	if err != nil {
		return err
	}
	s.docs.open(td.URI, path)
	snap := s.update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(path, td.Version, []byte(td.Text))}})
	s.announceIgnored(snap, []string{path})
	s.log.Debug("didOpen", zap.String("uri", string(td.URI)), zap.Int32("version", td.Version), zap.String("kind", string(snap.File(path).Kind())))
	s.diags.schedule(snap, path)
	return nil
}
