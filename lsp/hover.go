package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
)

// Hover explains what is under the cursor, as the file's family says it:
// rp1.Hover (a section, a scratch pad entry, a skeleton's region),
// charterfile.Hover (a criterion, phase or section of a .charters/
// charter), pi.Hover (a VAL).
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		return toProtocolHover(d.Index(), rp1.Hover(d.RP1(), d.offset(params.Position), interview.RegionQuestions)), nil
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
