package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/verify"
)

// kindVerify is the kind of the "Run `…`" actions.
const kindVerify protocol.CodeActionKind = "refactor.charter.verify"

// verifyTargets are the criteria of d that have a command to run, read
// from the snapshot d belongs to: none in Restricted Mode or outside the
// workspace folders, where verify refuses to run anything.
func (s *Server) verifyTargets(d *doc) []*verify.Target {
	if d.snap.Settings().Restricted || !s.InWorkspace(d.Path) {
		return nil
	}
	switch d.Kind {
	case analysis.KindCriteria, analysis.KindPiCharter:
		view := d.piView()
		if view == nil || view.Dir.CriteriaPath != d.Path {
			return nil // the register is in the other file
		}
		return verify.PiTargets(view.Dir)
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			return verify.ChartersTargets(v.Dir)
		}
	}
	return nil
}

// verifyCommandFor is the charter.verify command for t: its title shows
// the command as it will run, and its arguments carry that text, which the
// server compares with the charter before running anything.
func verifyCommandFor(d *doc, t *verify.Target) protocol.Command {
	title := "▶ Run `" + t.Verification.Command + "`"
	if t.Verification.Weak != nil {
		title += " (weak: can pass on zero tests)"
	}
	return protocol.Command{Title: title, Command: commandVerify,
		Arguments: commandArgs(verifyArgs{URI: d.URI, CriterionID: t.ID, Command: t.Verification.Command})}
}

// codeLensVerify puts "▶ Run `<command>`" over each criterion that has a
// command.
func (s *Server) codeLensVerify(d *doc) []protocol.CodeLens {
	ix := d.Index()
	var out []protocol.CodeLens
	for _, t := range s.verifyTargets(d) {
		out = append(out, protocol.CodeLens{Range: toProtocolRange(ix.Range(t.Heading())), Command: verifyCommandFor(d, t)})
	}
	return out
}

// verifyActions offers "Run `<command>`" for the criterion under the
// cursor.
func (s *Server) verifyActions(d *doc, params *protocol.CodeActionParams) []*protocol.CodeAction {
	off := d.Index().Offset(fromProtocolPosition(params.Range.Start))
	for _, t := range s.verifyTargets(d) {
		if b := t.Block(); b.Start <= off && off <= b.End {
			cmd := verifyCommandFor(d, t)
			return []*protocol.CodeAction{{Title: cmd.Title, Kind: actionKind(kindVerify), Command: cmd}}
		}
	}
	return nil
}
