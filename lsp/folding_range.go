package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// FoldingRanges folds what the outline shows (folding follows the document
// symbols: sections, the scratch pad and its entries, milestones, VALs),
// each from its heading line to its last line of content.
func (s *Server) FoldingRanges(ctx context.Context, params *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	out := []protocol.FoldingRange{}
	d := s.featureDoc(params.TextDocument.URI)
	if d == nil {
		return out, nil
	}
	var walk func([]protocol.DocumentSymbol)
	walk = func(syms []protocol.DocumentSymbol) {
		for _, sym := range syms {
			if sym.Range.End.Line > sym.Range.Start.Line {
				out = append(out, protocol.FoldingRange{
					StartLine: sym.Range.Start.Line,
					EndLine:   sym.Range.End.Line,
					Kind:      protocol.FoldingRangeKindRegion,
				})
			}
			walk(sym.Children)
		}
	}
	walk(s.symbols(d))
	return out, nil
}
