package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// Symbols answers workspace/symbol: every VAL of every pi charter in the
// workspace folders whose name matches the query (case-insensitive
// substring, else the query's characters in order). The charters are found
// and their registers read once per change, in the background when the
// server starts (scan.go); the symbols are kept located, without the
// charters' files.
func (s *Server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	query := strings.ToLower(strings.TrimSpace(params.Query))
	out := protocol.WorkspaceSymbolSlice{}
	charters, err := s.ws.Snapshot().Symbols(ctx, nil)
	if err != nil {
		return nil, err
	}
	for _, syms := range charters {
		// A cancelled request stops between charters (their symbols are
		// at hand; the answer is what takes time).
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, sym := range syms {
			if feature.Matches(strings.ToLower(sym.Name), query) {
				container := sym.Container
				loc := protocol.Location{URI: s.docs.uri(sym.Path), Range: toProtocolRange(sym.Range)}
				out = append(out, protocol.WorkspaceSymbol{
					BaseSymbolInformation: protocol.BaseSymbolInformation{Name: sym.Name, Kind: protocol.SymbolKindKey, ContainerName: &container},
					Location:              &loc,
				})
			}
		}
	}
	return out, nil
}
