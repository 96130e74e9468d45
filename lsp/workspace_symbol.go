package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// valSymbols caches each charter directory's VAL symbols, keyed by a stamp
// of the files the register is read from (criteria.md and charter.md: size,
// time and open version), so a query re-reads only charters that changed.
type valSymbols struct {
	mu      sync.Mutex
	entries map[string]valSymbolsEntry
}

type valSymbolsEntry struct {
	stamp   string
	symbols []protocol.WorkspaceSymbol
}

// Symbols answers workspace/symbol: every VAL of every pi charter in the
// workspace folders whose name matches the query (case-insensitive
// substring, else the query's characters in order).
func (s *Server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	query := strings.ToLower(strings.TrimSpace(params.Query))
	out := protocol.WorkspaceSymbolSlice{}
	for _, dir := range s.workspacePiCharters() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for _, sym := range s.charterSymbols(dir) {
			if matches(strings.ToLower(sym.Name), query) {
				out = append(out, sym)
			}
		}
	}
	return out, nil
}

// charterSymbols returns the VAL symbols of one charter, from the cache
// when its register files are unchanged.
func (s *Server) charterSymbols(dir string) []protocol.WorkspaceSymbol {
	stamp := s.registerStamp(dir)
	s.valSyms.mu.Lock()
	if e, ok := s.valSyms.entries[dir]; ok && e.stamp == stamp {
		s.valSyms.mu.Unlock()
		return e.symbols
	}
	s.valSyms.mu.Unlock()

	d := pi.LoadDir(s.fs, dir)
	var syms []protocol.WorkspaceSymbol
	if d.Criteria != nil {
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
	}
	s.valSyms.mu.Lock()
	if s.valSyms.entries == nil {
		s.valSyms.entries = map[string]valSymbolsEntry{}
	}
	s.valSyms.entries[dir] = valSymbolsEntry{stamp: stamp, symbols: syms}
	s.valSyms.mu.Unlock()
	return syms
}

// registerStamp identifies the versions of a charter's register files.
func (s *Server) registerStamp(dir string) string {
	var b strings.Builder
	for _, name := range []string{"criteria.md", "charter.md"} {
		p := filepath.Join(dir, name)
		if d := s.sess.getPath(p); d != nil {
			fmt.Fprintf(&b, "%s@v%d;", name, d.Version)
			continue
		}
		if fi, err := s.fs.Stat(p); err == nil {
			fmt.Fprintf(&b, "%s@%d/%s;", name, fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
		}
	}
	return b.String()
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
