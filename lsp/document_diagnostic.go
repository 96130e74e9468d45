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
	res := noDiagnostics
	if snap, f, err := s.fileOf(params.TextDocument.URI); err == nil && f.Open() && isCharter(f) {
		if res, err = s.diags.compute(ctx, snap, f); err != nil {
			return nil, err
		}
		f.PrepareEdit() // the next keystroke's text, made while the client reads these
	}
	resultID := res.resultID
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
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &resultID, Items: res.protocolItems(),
		},
	}, nil
}
