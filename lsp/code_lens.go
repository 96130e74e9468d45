package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// CodeLens shows the interview's next step on an rp1 charter
// (code_lens_rp1.go) and VAL and milestone status on pi charters.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	d := s.featureDoc(params.TextDocument.URI)
	if d == nil {
		return out, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		out = append(out, s.codeLensRP1(d)...)
	case analysis.KindCriteria, analysis.KindPiCharter:
		out = append(out, s.codeLensPi(d)...)
	}
	return out, nil
}
