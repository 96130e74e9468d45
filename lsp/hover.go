package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// Hover explains what is under the cursor: an rp1 section heading or
// scratch pad entry (hover_rp1.go), a VAL (hover_pi.go).
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	d := s.featureDoc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		return s.hoverRP1(d, params.Position), nil
	case analysis.KindCriteria, analysis.KindPiCharter, analysis.KindReport, analysis.KindEvidence, analysis.KindCriterionState:
		return s.hoverPi(d, params.Position), nil
	}
	return nil, nil
}
