package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Completion offers, in a .charters/ charter, what its grammar reads at
// the cursor (Depends ids, Status and Evidence tokens, phase suffixes,
// labels), and, in pi charter files: field keys at the start of a line
// in a VAL body, verifier kinds after Verifier:, evidence kinds after Kind:,
// booleans after the flag keys, and the charter's VAL ids after "VAL-"
// anywhere (criteria.md, REPORT.md, evidence JSON, …).
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(params.Position))
	if d.Kind == analysis.KindChartersCharter {
		if v := d.chartersView(); v != nil {
			return toProtocolCompletion(ix, charterfile.Complete(v, off)), nil
		}
		return nil, nil
	}
	if d.Kind == analysis.KindNone {
		return nil, nil
	}
	if v := d.piView(); v != nil {
		return toProtocolCompletion(ix, pi.Complete(v, d.Path, ix, off)), nil
	}
	return nil, nil
}
