package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Hover explains what is under the cursor: an rp1 section heading or
// scratch pad entry (hover_rp1.go), a skeleton charter's region
// (hover_skeleton.go), a .charters/ charter's criterion, phase or section
// (hover_charters.go), a VAL (hover_pi.go).
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		if sk := d.skeleton(); sk != nil {
			return s.hoverSkeleton(d, sk, params.Position), nil
		}
		return s.hoverRP1(d, params.Position), nil
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			return toProtocolHover(d.Index(), charterfile.Hover(v, d.Index(), d.offset(params.Position))), nil
		}
	case analysis.KindCriteria, analysis.KindPiCharter, analysis.KindReport, analysis.KindEvidence, analysis.KindCriterionState:
		if v := d.piView(); v != nil {
			return toProtocolHover(d.Index(), pi.Hover(v, d.Path, d.Index(), d.offset(params.Position), time.Now())), nil
		}
	}
	return nil, nil
}
