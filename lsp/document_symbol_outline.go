package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/outline"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// outlineKinds are the symbol kinds of outline symbols.
var outlineKinds = map[outline.Kind]protocol.SymbolKind{
	outline.Title:     protocol.SymbolKindFile,
	outline.Section:   protocol.SymbolKindModule,
	outline.Region:    protocol.SymbolKindModule,
	outline.Criterion: protocol.SymbolKindConstant,
	outline.Phase:     protocol.SymbolKindEvent,
	outline.Entry:     protocol.SymbolKindEvent,
	outline.Heading:   protocol.SymbolKindNamespace,
}

// outlineSymbols converts an outline (charterfile.Outline,
// rp1.SkeletonOutline) to document symbols.
func outlineSymbols(ix *source.Index, syms []*outline.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(syms))
	for _, s := range syms {
		sym := symbol(ix, s.Name, s.Detail, outlineKinds[s.Kind], s.Span, s.Heading)
		sym.Children = outlineSymbols(ix, s.Children)
		widen(&sym)
		out = append(out, sym)
	}
	return out
}
