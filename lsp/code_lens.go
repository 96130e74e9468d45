package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// CodeLens shows the interview's next step on an rp1 charter
// (code_lens_rp1.go), the gaps of a skeleton charter and the progress of a
// .charters/ charter (code_lens_charters.go), and VAL and milestone status
// on pi charters.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		if sk := d.skeleton(); sk != nil {
			out = append(out, s.codeLensSkeleton(d, sk)...)
		} else {
			out = append(out, s.codeLensRP1(d)...)
		}
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			out = append(out, toProtocolLenses(d, charterfile.Lens(v))...)
		}
	case analysis.KindCriteria, analysis.KindPiCharter:
		if v := d.piView(); v != nil {
			out = append(out, toProtocolLenses(d, pi.Lens(v, d.Path, time.Now()))...)
		}
	}
	return out, nil
}
