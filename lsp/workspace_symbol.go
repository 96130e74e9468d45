package lsp

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

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
		for _, sym := range valSymbols(view) {
			if matches(strings.ToLower(sym.Name), query) {
				out = append(out, sym)
			}
		}
	}
	return out, nil
}

// valSymbols are the VAL symbols of one charter.
func valSymbols(view *pi.View) []protocol.WorkspaceSymbol {
	d := view.Dir
	var syms []protocol.WorkspaceSymbol
	f := d.File(d.CriteriaPath)
	for _, c := range d.Criteria.Criteria {
		container := d.ID
		if c.MilestoneID != "" {
			container = d.ID + " › " + c.MilestoneID
		}
		name := c.ID
		if c.Title != "" && c.Title != c.ID {
			name += " — " + c.Title
		}
		loc := &protocol.Location{URI: uri.File(d.CriteriaPath)}
		if f != nil {
			loc.Range = toProtocolRange(f.Index.Range(c.HeadingSpan))
		}
		syms = append(syms, protocol.WorkspaceSymbol{
			BaseSymbolInformation: protocol.BaseSymbolInformation{Name: name, Kind: protocol.SymbolKindKey, ContainerName: &container},
			Location:              loc,
		})
	}
	return syms
}

// matches is a substring match on the lower-cased name (id and title),
// falling back to a fuzzy match on the id alone: the query's runes in
// order ("vs1" finds VAL-SESS-001). Fuzzy over titles would match nearly
// everything.
func matches(name, query string) bool {
	if query == "" || strings.Contains(name, query) {
		return true
	}
	id, _, _ := strings.Cut(name, " ")
	for _, r := range query {
		if unicode.IsSpace(r) {
			continue
		}
		i := strings.IndexRune(id, r)
		if i < 0 {
			return false
		}
		id = id[i+utf8.RuneLen(r):]
	}
	return true
}
