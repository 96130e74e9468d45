package lsp

import (
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
)

// interviewActions are the interview steps that make sense for the
// document now: a skeleton charter's (rp1.Actions, told which diagnostics
// the editor sent with the request), a scratch-pad charter's
// (interview.Actions, told whether the interview agent decides). Each step
// runs its command, so the edit is computed against the document as it is
// when chosen (and refused if it changed since this version), and the
// command can place the cursor after applying it. Every interview action
// edits the file: none outside the workspace folders.
func (s *Server) interviewActions(d *doc, params *protocol.CodeActionParams) []*protocol.CodeAction {
	if d.Kind != analysis.KindRP1Charter && d.Kind != analysis.KindOtherCharter || !s.InWorkspaceURI(d.URI) {
		return nil
	}
	if d.skeleton() != nil {
		var codes []diag.Code
		for _, pd := range params.Context.Diagnostics {
			if code, ok := pd.Code.(protocol.String); ok {
				if c, known := diag.ParseCode(string(code)); known {
					codes = append(codes, c)
				}
			}
		}
		return s.toProtocolActions(d, rp1.Actions(d.RP1(), d.offset(params.Range.Start), codes))
	}
	agent := ""
	if s.agentConfig().Enabled() && !s.settings().Restricted {
		agent = s.agentConfig().Name()
	}
	opts := interview.Options{Budget: d.config().Budget(), Path: d.Path}
	return s.toProtocolActions(d, interview.Actions(d.RP1(), d.Text, d.Kind == analysis.KindOtherCharter, opts, agent, time.Now()))
}
