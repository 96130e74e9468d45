package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// InlayHint puts a criterion's latest outcome and its age after its
// heading: a VAL's (pi.InlayHints, the code lens's words), a .charters/
// criterion's (charterfile.InlayHints: its Status line and the journal's
// last change of it). Only the hints in the requested range are sent.
func (s *Server) InlayHint(ctx context.Context, params *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	out := []protocol.InlayHint{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	var hints []feature.InlayHint
	switch d.Kind {
	case analysis.KindCriteria, analysis.KindPiCharter:
		if v := d.piView(); v != nil {
			hints = pi.InlayHints(v, d.Path, time.Now())
		}
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			hints = charterfile.InlayHints(v, time.Now())
		}
	}
	ix := d.Index()
	want := ix.Span(fromProtocolRange(params.Range))
	yes := true
	for _, h := range hints {
		if h.At < want.Start || ix.LineStart(ix.Line(h.At)) > want.End || h.Label == "" {
			continue
		}
		out = append(out, protocol.InlayHint{Position: toProtocolPosition(ix.Position(h.At)), Label: protocol.String(h.Label), PaddingLeft: &yes})
	}
	return out, nil
}
