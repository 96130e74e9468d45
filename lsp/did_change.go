package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// DidChange applies incremental (or whole-document) changes and makes the
// next snapshot. A version that does not increase is refused and logged:
// applying a duplicate or a reordered edit would corrupt the document.
func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	changes := make([]workspace.TextChange, 0, len(params.ContentChanges))
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			changes = append(changes, workspace.TextChange{Range: fromProtocolRange(c.Range), Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, workspace.TextChange{Whole: true, Text: c.Text})
		}
	}
	u, version := params.TextDocument.URI, params.TextDocument.Version
	path, err := filePath(u)
	if err != nil {
		return err
	}
	// Text synchronisation runs in wire order on the read loop, so nothing
	// else changes this document between reading it and the update.
	snap := s.ws.Snapshot()
	old := snap.Document(path)
	if old == nil {
		return fmt.Errorf("%s is not open", u)
	}
	if version <= old.Version {
		s.log.Warn("didChange refused", zap.String("uri", string(u)), zap.Int32("version", version), zap.Int32("after", old.Version))
		return nil
	}
	doc, err := old.Apply(version, changes, snap.File(path).Index())
	if err != nil {
		return err
	}
	s.diags.schedule(s.update(workspace.Change{Documents: []*workspace.Document{doc}}), path)
	return nil
}
