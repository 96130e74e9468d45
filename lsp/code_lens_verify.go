package lsp

import (
	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/verify"
)

// verifyTargets are the criteria of d that have a command to run, read
// from the snapshot d belongs to: none in Restricted Mode or outside the
// workspace folders, where verify refuses to run anything. Their lenses
// and actions are verify.Lens and verify.Actions.
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
