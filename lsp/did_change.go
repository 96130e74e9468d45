package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// DidChange applies incremental (or whole-document) changes. A version that
// does not increase is refused and logged: applying a duplicate or a
// reordered edit would corrupt the document.
func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	changes := make([]Change, 0, len(params.ContentChanges))
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			changes = append(changes, Change{Range: fromProtocolRange(c.Range), Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, Change{Whole: true, Text: c.Text})
		}
	}
	u, version := params.TextDocument.URI, params.TextDocument.Version
	d, err := s.sess.change(u, version, changes)
	if errors.Is(err, errStaleVersion) {
		s.log.Warn("didChange refused", zap.String("uri", string(u)), zap.Error(err))
		return nil
	}
	if err != nil {
		return err
	}
	s.documentChanged(d)
	return nil
}

// documentChanged re-checks what a new version of d affects: d itself, every
// open file of its pi-charter directory, or everything when d is the
// project configuration.
func (s *Server) documentChanged(d *Document) {
	if s.isProjectConfig(d.Path) {
		s.loadProjectConfig()
		s.diags.scheduleAll()
		return
	}
	// A pull client asks for d's diagnostics itself after its own edit, so a
	// background check of d would be wasted; the other files are re-checked
	// and, if they changed, the client is asked to pull again.
	pull, _ := s.diags.pullClient()
	if dir := analysis.CharterFolder(d.Path); dir != "" {
		for _, other := range s.sess.charterDirDocs(dir) {
			if !pull || other.URI != d.URI {
				s.diags.schedule(other.URI)
			}
		}
		return
	}
	if !pull {
		s.diags.schedule(d.URI)
	}
}
