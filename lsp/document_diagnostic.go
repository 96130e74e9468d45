package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// Diagnostic answers textDocument/diagnostic (pull diagnostics): the
// document's diagnostics in the current snapshot (shared with the push path
// when it computed them already), or "unchanged" when the client's previous
// result id still holds. Documents the server does not analyse get an empty
// full report.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	items := []protocol.Diagnostic{}
	resultID := digest(items)
	if snap, f, err := s.fileOf(params.TextDocument.URI); err == nil && f.Open() && isCharter(f) {
		res, err := s.diags.compute(ctx, snap, f)
		if err != nil {
			return nil, err
		}
		items, resultID = res.items, res.resultID
	}
	s.diags.served(params.TextDocument.URI, resultID)
	if prev := params.PreviousResultID; prev != nil && *prev == resultID {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{
			UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
				Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: resultID,
			},
		}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &resultID, Items: items,
		},
	}, nil
}
