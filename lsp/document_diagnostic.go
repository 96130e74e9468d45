package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// Diagnostic answers textDocument/diagnostic (pull diagnostics): the
// current diagnostics of the document, computed now, or "unchanged" when the
// client's previous result id still holds. Documents the server does not
// analyse get an empty full report.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	items := []protocol.Diagnostic{}
	resultID := digest(items)
	if d := s.sess.get(params.TextDocument.URI); d != nil && d.IsCharter() {
		res, err := s.diags.compute(d)
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
