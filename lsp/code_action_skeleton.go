package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// skeletonActions are a skeleton charter's interview steps (rp1.Actions),
// told which diagnostics the editor sent with the request.
func (s *Server) skeletonActions(d *doc, _ *rp1.Skeleton, params *protocol.CodeActionParams) []*protocol.CodeAction {
	var codes []diag.Code
	for _, pd := range params.Context.Diagnostics {
		if code, ok := pd.Code.(protocol.String); ok {
			if c, known := diag.ParseCode(string(code)); known {
				codes = append(codes, c)
			}
		}
	}
	return s.toProtocolActions(d, rp1.Actions(d.RP1(), d.offset(params.Range.Start), codes))
}
