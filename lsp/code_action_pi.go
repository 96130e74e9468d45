package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// kindRecordEvidence is the kind of the "Record evidence" actions.
const kindRecordEvidence protocol.CodeActionKind = "refactor.charter.recordEvidence"

// codeActionsPi offers, in a VAL register: "Record evidence: pass / fail /
// partial" for the VAL under the cursor (a charter.recordEvidence command,
// so the edit is built when the user picks it), and quick fixes for the pi
// diagnostics that have an obvious fix.
func (s *Server) codeActionsPi(ctx context.Context, d *doc, params *protocol.CodeActionParams) []protocol.CommandOrCodeAction {
	dir := analysis.PiCharterDir(d.Path)
	if dir == "" || !s.InWorkspace(d.Path) {
		return nil
	}
	var actions []*protocol.CodeAction
	for _, pd := range params.Context.Diagnostics {
		if a := s.piQuickFix(d, pd); a != nil {
			actions = append(actions, a)
		}
	}
	if d.Kind == analysis.KindCriteria || d.Kind == analysis.KindPiCharter {
		view := d.piView()
		off := d.Index().Offset(fromProtocolPosition(params.Range.Start))
		if c := criterionAt(d.register(view), off); c != nil && view != nil && view.Criterion(c.ID) != nil {
			for _, outcome := range []string{"pass", "fail", "partial"} {
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

// piQuickFix returns the fix for one of our diagnostics, or nil.
func (s *Server) piQuickFix(d *doc, pd protocol.Diagnostic) *protocol.CodeAction {
	if src, _ := pd.Source.Get(); src != diag.Source {
		return nil
	}
	name, _ := pd.Code.(protocol.String)
	code, _ := diag.ParseCode(string(name))
	var data map[string]string
	if len(pd.Data) > 0 {
		_ = json.Unmarshal(pd.Data, &data) // no data: only the fixes that need none
	}
	ix := d.Index()
	at := ix.Span(fromProtocolRange(pd.Range))
	var title string
	var edits []protocol.TextEdit
	replace := func(t, text string) {
		title = t
		edits = []protocol.TextEdit{{Range: pd.Range, NewText: text}}
	}
	switch code {
	case diag.VALIDInvalid:
		if id := data["id"]; id != "" {
			replace("Change the id to "+id, id)
		}
	case diag.FieldNotParsed:
		if r := data["replacement"]; r != "" {
			replace("Rewrite as `"+r+"`", r)
		}
	case diag.InvalidVerifier:
		if k := data["kind"]; k != "" {
			replace("Change the verifier to "+k, k)
		}
	case diag.MissingVerifier:
		c := criterionAt(d.register(d.piView()), at.Start)
		if c == nil || hasNotParsed(c, pi.KeyVerifier) {
			return nil // a bullet Verifier: line has its own fix (field-not-parsed)
		}
		title = "Add `Verifier: manual` and `Because:` lines"
		edits = []protocol.TextEdit{insertAfterBody(d, c, "Verifier: manual", "Because: ")}
	case diag.MissingBecause:
		c := criterionAt(d.register(d.piView()), at.Start)
		if c == nil || c.Field(pi.KeyBecause) != nil {
			return nil // an empty Because: line is there: nothing obvious to add
		}
		title = "Add a `Because:` line"
		line := ix.Line(at.Start)
		nl := lineBreak(d.Text)
		pos := toProtocolPosition(ix.Position(ix.LineEnd(line)))
		edits = []protocol.TextEdit{{Range: protocol.Range{Start: pos, End: pos}, NewText: nl + "Because: "}}
	}
	if len(edits) == 0 {
		return nil
	}
	v := d.Version
	edit, err := s.workspaceEdit(editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &v, Kind: d.Kind}, edits)
	if err != nil {
		return nil
	}
	yes := true
	return &protocol.CodeAction{Title: title, Kind: actionKind(protocol.CodeActionKindQuickFix), Diagnostics: []protocol.Diagnostic{pd}, IsPreferred: &yes, Edit: edit}
}

func hasNotParsed(c *pi.Criterion, key string) bool {
	for _, f := range c.NotParsed {
		if f.Key == key {
			return true
		}
	}
	return false
}

// insertAfterBody inserts lines after the last non-blank line of the VAL's
// body (or its heading): fields go after the description paragraph, which
// upstream reads only when it comes before any field.
func insertAfterBody(d *doc, c *pi.Criterion, lines ...string) protocol.TextEdit {
	ix := d.Index()
	last := ix.Line(c.HeadingSpan.Start)
	if c.BodySpan.End > c.BodySpan.Start {
		for l := ix.Line(c.BodySpan.Start); l <= ix.Line(max(c.BodySpan.End-1, c.BodySpan.Start)); l++ {
			sp := source.Span{Start: ix.LineStart(l), End: ix.LineEnd(l)}
			if sp.End > len(d.Text) || sp.Start > sp.End {
				break
			}
			if strings.TrimSpace(string(d.Text[sp.Start:sp.End])) != "" {
				last = l
			}
		}
	}
	nl := lineBreak(d.Text)
	pos := toProtocolPosition(ix.Position(ix.LineEnd(last)))
	return protocol.TextEdit{Range: protocol.Range{Start: pos, End: pos}, NewText: nl + strings.Join(lines, nl)}
}
