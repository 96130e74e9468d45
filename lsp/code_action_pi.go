package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// kindRecordEvidence is the kind of the "Record evidence" actions.
const kindRecordEvidence protocol.CodeActionKind = "refactor.charter.recordEvidence"

// codeActionsPi offers, in a VAL register: "Record evidence: pass / fail /
// partial" for the VAL under the cursor (a charter.recordEvidence command,
// so the edit is built when the user picks it).
func (s *Server) codeActionsPi(ctx context.Context, d *doc, params *protocol.CodeActionParams) []protocol.CommandOrCodeAction {
	dir := analysis.PiCharterDir(d.Path)
	if dir == "" || !s.InWorkspace(d.Path) {
		return nil
	}
	var actions []*protocol.CodeAction
	if d.Kind == analysis.KindCriteria || d.Kind == analysis.KindPiCharter {
		view := d.piView()
		off := d.Index().Offset(fromProtocolPosition(params.Range.Start))
		if c := criterionAt(d.register(view), off); c != nil && view != nil && view.Criterion(c.ID) != nil {
			for _, o := range pi.Outcomes {
				outcome := string(o)
				actions = append(actions, &protocol.CodeAction{
					Title:   "Record evidence: " + outcome,
					Kind:    actionKind(kindRecordEvidence),
					Command: recordCommand("Record evidence: "+outcome, d, c.ID, outcome),
				})
			}
		}
	}
	var out []protocol.CommandOrCodeAction
	for _, a := range actions {
		if wanted(a, params.Context.Only) {
			out = append(out, a)
		}
	}
	return out
}

// recordCommand is the charter.recordEvidence command for one VAL; an empty
// outcome makes the server ask for it.
func recordCommand(title string, d *doc, id, outcome string) protocol.Command {
	arg := map[string]string{"uri": string(d.URI), "criterionId": id}
	if outcome != "" {
		arg["outcome"] = outcome
	}
	return protocol.Command{Title: title, Command: commandRecordEvidence, Arguments: commandArgs(arg)}
}
