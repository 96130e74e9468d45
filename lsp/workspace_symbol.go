package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Symbols answers workspace/symbol: every VAL of every pi charter in the
// workspace folders whose name matches the query (case-insensitive
// substring, else the query's characters in order). The charters are found
// and their registers parsed once per change (the snapshot's views).
func (s *Server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	query := strings.ToLower(strings.TrimSpace(params.Query))
	out := protocol.WorkspaceSymbolSlice{}
	snap := s.ws.Snapshot()
	found, err := snap.Charters(ctx)
	if err != nil {
		return nil, err
	}
	for _, dir := range found.PiCharters {
		// A view already computed comes back whatever ctx says: check it
		// here too, so that a cancelled request stops between charters.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		view, err := snap.PiView(ctx, dir)
		if err != nil {
			return nil, err
		}
		for _, sym := range pi.Symbols(view) {
			if feature.Matches(strings.ToLower(sym.Name), query) {
				loc := s.location(snap, sym.Location)
				out = append(out, protocol.WorkspaceSymbol{
					BaseSymbolInformation: protocol.BaseSymbolInformation{Name: sym.Name, Kind: protocol.SymbolKindKey, ContainerName: &sym.Container},
					Location:              &loc,
				})
			}
		}
	}
	return out, nil
}
