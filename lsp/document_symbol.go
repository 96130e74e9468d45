package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// DocumentSymbol outlines a charter file: rp1 title, sections and scratch
// pad entries (document_symbol_rp1.go); criteria.md milestones and VALs,
// REPORT.md and pi charter.md sections (document_symbol_pi.go).
func (s *Server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	d := s.featureDoc(params.TextDocument.URI)
	if d == nil {
		return protocol.DocumentSymbolSlice{}, nil
	}
	return protocol.DocumentSymbolSlice(s.symbols(d)), nil
}

// symbols is the outline of d, shared by DocumentSymbol and FoldingRanges.
func (s *Server) symbols(d *Document) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	switch d.Kind {
	case analysis.KindRP1Charter:
		out = rp1Symbols(d)
	case analysis.KindCriteria:
		out = s.criteriaSymbols(d)
	case analysis.KindReport:
		out = reportSymbols(d)
	case analysis.KindPiCharter:
		out = s.piCharterSymbols(d)
	}
	if out == nil {
		out = []protocol.DocumentSymbol{}
	}
	return out
}

// symbol builds one outline entry: span is the whole block (trailing
// whitespace dropped, so it ends on its last line of content), sel the
// heading.
func symbol(ix *source.Index, name, detail string, kind protocol.SymbolKind, span, sel source.Span) protocol.DocumentSymbol {
	src := ix.Source()
	for span.End > span.Start && span.End > sel.End && isBlank(src[span.End-1]) {
		span.End--
	}
	if span.Start > sel.Start {
		span.Start = sel.Start
	}
	if span.End < sel.End {
		span.End = sel.End
	}
	if name == "" {
		name = "(untitled)"
	}
	sym := protocol.DocumentSymbol{
		Name: name, Kind: kind,
		Range:          toProtocolRange(ix.Range(span)),
		SelectionRange: toProtocolRange(ix.Range(sel)),
	}
	if detail != "" {
		sym.Detail = &detail
	}
	return sym
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// widen makes parent's range cover its children's.
func widen(parent *protocol.DocumentSymbol) {
	for _, c := range parent.Children {
		if before(c.Range.Start, parent.Range.Start) {
			parent.Range.Start = c.Range.Start
		}
		if before(parent.Range.End, c.Range.End) {
			parent.Range.End = c.Range.End
		}
	}
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}
