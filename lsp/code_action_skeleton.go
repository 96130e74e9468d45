package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
)

// skeletonActions move a skeleton charter's interview forward: ask the
// question of the first gap (and of the gap under the cursor, when that is
// another one), each a charter.interview.region command; and set
// **Status** to what the gaps call for when it disagrees (offered here
// away from its diagnostic, whose quick fix does the same).
func (s *Server) skeletonActions(d *doc, sk *rp1.Skeleton, params *protocol.CodeActionParams) []*protocol.CodeAction {
	var out []*protocol.CodeAction
	ask := func(title string, id rp1.RegionID) {
		out = append(out, &protocol.CodeAction{Title: title, Kind: actionKind(codeActionInterview), Command: protocol.Command{
			Title: title, Command: cmdInterviewRegion, Arguments: commandArgs(regionArgs{URI: d.URI, Version: &d.Version, Region: id}),
		}})
	}
	gaps := sk.Gaps()
	if len(gaps) > 0 {
		ask(fmt.Sprintf("Answer the next question: %s", gaps[0]), "")
	}
	off := d.Index().Offset(fromProtocolPosition(params.Range.Start))
	for _, r := range sk.Regions {
		if r.Heading != nil && r.Gap() && r.ID != gaps[0] && off >= r.Heading.Span.Start && off <= r.Body.End {
			ask(fmt.Sprintf("Answer the question for %s", r.ID), r.ID)
		}
	}
	if p := interview.CorrectStatus(d.Text); len(p.Edits) > 0 && !hasStatusDiagnostic(params.Context.Diagnostics) {
		fix := &diag.Fix{Title: fmt.Sprintf("Set **Status**: %s (what the gaps call for)", sk.ExpectedStatus()), Edits: p.Edits}
		out = append(out, s.editActions(d, []*diag.Fix{fix}, codeActionInterview)...)
	}
	return out
}

// hasStatusDiagnostic: the request's context holds a **Status** diagnostic,
// whose quick fix already sets it.
func hasStatusDiagnostic(pds []protocol.Diagnostic) bool {
	for _, pd := range pds {
		code, _ := pd.Code.(protocol.String)
		if string(code) == diag.StatusMismatch.String() || string(code) == diag.StatusNoncanonical.String() {
			return true
		}
	}
	return false
}
