package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// DidOpen adds the document to the overlay and checks it if it is a charter
// file. Charter files are recognised by path and content whatever language
// id the editor sends; other documents are kept (they may be read by a
// check) but get no diagnostics at all.
func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	d, err := s.sess.open(td.URI, string(td.LanguageID), td.Version, []byte(td.Text))
	if err != nil {
		return err
	}
	s.log.Debug("didOpen", zap.String("uri", string(d.URI)), zap.Int32("version", d.Version), zap.String("kind", string(d.Kind)))
	s.documentChanged(d)
	return nil
}
