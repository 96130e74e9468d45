package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// codeActionStatus is the kind of the actions that record where work
// stands in a .charters/ charter: a criterion's status, a phase done.
const codeActionStatus protocol.CodeActionKind = "refactor.rewrite.charter.status"

// chartersActions move a .charters/ charter's work forward, each an edit
// of charter.md itself (the file is the record; no sidecar is written):
//   - on a criterion: set its status to each other token its grammar reads
//     (ADR-0014: its Evidence line), the equivalent of recording evidence;
//   - in an ADR-0014 criterion, rewrite its Evidence line as a Status line;
//     anywhere with Evidence lines left, rewrite them all (ADR-0015);
//   - on a phase that is not done, mark it done.
func (s *Server) chartersActions(d *doc, params *protocol.CodeActionParams) []*protocol.CodeAction {
	if !s.InWorkspace(d.Path) {
		return nil
	}
	c := d.charter()
	off := d.Index().Offset(fromProtocolPosition(params.Range.Start))
	var fixes []*diag.Fix
	if cr, _ := c.CriterionAt(off); cr != nil && c.Criterion(cr.ID) == cr {
		for _, tok := range charterfile.StatusTokens(c.Generation, "Status") {
			if tok == cr.Status && cr.StatusLine != nil && !cr.Legacy {
				continue
			}
			if f, err := c.SetStatus(cr.ID, tok); err == nil {
				fixes = append(fixes, f)
			}
		}
		if c.Generation == charterfile.FI14 {
			if f, err := c.EvidenceToStatus(cr.ID); err == nil && f != nil {
				fixes = append(fixes, f)
			}
		}
	}
	if f, err := c.EvidenceToStatus(""); err == nil && f != nil {
		fixes = append(fixes, f)
	}
	if ph, n := c.PhaseAt(off); ph != nil && ph.Status != charterfile.PhaseDone {
		if f, err := c.MarkPhaseDone(n); err == nil {
			fixes = append(fixes, f)
		}
	}
	return s.editActions(d, fixes, codeActionStatus)
}

// editActions turns fixes against d's text into code actions of kind k,
// each a versioned edit of d.
func (s *Server) editActions(d *doc, fixes []*diag.Fix, k protocol.CodeActionKind) []*protocol.CodeAction {
	ix := d.Index()
	var out []*protocol.CodeAction
	for _, f := range fixes {
		edits := make([]protocol.TextEdit, len(f.Edits))
		for i, e := range f.Edits {
			edits[i] = protocol.TextEdit{Range: toProtocolRange(ix.Range(e.Span)), NewText: e.NewText}
		}
		v := d.Version
		edit, err := s.workspaceEdit(editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &v, Kind: d.Kind}, edits)
		if err != nil {
			continue
		}
		out = append(out, &protocol.CodeAction{Title: f.Title, Kind: actionKind(k), Edit: edit})
	}
	return out
}
