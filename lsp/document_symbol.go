package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// DocumentSymbol outlines a charter file as its family outlines it
// (analysis/outline values, converted in document_symbol_outline.go): an
// rp1 charter's title, sections, scratch pad entries or skeleton regions
// (rp1.Outline); criteria.md milestones and VALs, REPORT.md and pi
// charter.md sections (pi.CriteriaOutline, ReportOutline, CharterOutline);
// a .charters/ charter's sections, criteria and phases (charterfile.Outline).
func (s *Server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return protocol.DocumentSymbolSlice{}, nil
	}
	return protocol.DocumentSymbolSlice(s.symbols(d)), nil
}

// symbols is the outline of d, shared by DocumentSymbol and FoldingRanges.
func (s *Server) symbols(d *doc) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	switch d.Kind {
	case analysis.KindRP1Charter:
		out = outlineSymbols(d.Index(), rp1.Outline(d.RP1()))
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil && v.Charter != nil {
			out = outlineSymbols(d.Index(), charterfile.Outline(v.Charter))
		}
	case analysis.KindCriteria:
		out = outlineSymbols(d.Index(), pi.CriteriaOutline(d.Criteria(), d.piView()))
	case analysis.KindReport:
		out = outlineSymbols(d.Index(), pi.ReportOutline(d.Text))
	case analysis.KindPiCharter:
		out = outlineSymbols(d.Index(), pi.CharterOutline(d.Text, d.piView()))
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
