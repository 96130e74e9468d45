package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// This file is the one place where analysis values become protocol values
// and back. Positions are already LSP positions (UTF-16) in analysis.

func toProtocolPosition(p source.Position) protocol.Position {
	return protocol.Position{Line: clampU32(p.Line), Character: clampU32(p.Character)}
}

func toProtocolRange(r source.Range) protocol.Range {
	return protocol.Range{Start: toProtocolPosition(r.Start), End: toProtocolPosition(r.End)}
}

func fromProtocolPosition(p protocol.Position) source.Position {
	return source.Position{Line: clampInt(p.Line), Character: clampInt(p.Character)}
}

func fromProtocolRange(r protocol.Range) source.Range {
	return source.Range{Start: fromProtocolPosition(r.Start), End: fromProtocolPosition(r.End)}
}

// toProtocolDiagnostics converts located diagnostics; it never returns nil,
// because a publish of `null` is rejected by some clients.
func toProtocolDiagnostics(ds []diag.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Severity == diag.SeverityOff {
			continue
		}
		pd := protocol.Diagnostic{
			Range:    toProtocolRange(d.Range),
			Severity: protocol.DiagnosticSeverity(d.Severity),
			Source:   protocol.NewOptional(d.Source),
			Message:  protocol.String(d.Message),
		}
		if d.Source == "" {
			pd.Source = protocol.NewOptional(diag.Source)
		}
		if d.Code.Rule() != nil {
			pd.Code = protocol.String(d.Code.String())
			pd.CodeDescription = protocol.CodeDescription{Href: uri.URI(d.Code.DocURL())}
		}
		for _, r := range d.Related {
			if r.File == "" {
				continue
			}
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: uri.File(r.File), Range: toProtocolRange(r.Range)},
				Message:  r.Message,
			})
		}
		if len(d.Data) > 0 {
			// encoding/json sorts map keys; protocol.Marshal does not, and
			// a varying key order changed the digest of equal diagnostics
			// (needless republishes, pull resultIds that never matched).
			if raw, err := json.Marshal(d.Data); err == nil {
				pd.Data = raw
			}
		}
		out = append(out, pd)
	}
	return out
}

func clampU32(n int) uint32 {
	if n < 0 {
		return 0
	}
	if n > 1<<31 {
		return 1 << 31
	}
	return uint32(n)
}

func clampInt(n uint32) int {
	if n > 1<<31 {
		return 1 << 31
	}
	return int(n)
}
