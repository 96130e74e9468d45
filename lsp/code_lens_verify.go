package lsp

import (
	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/verify"
)

// verifyTargets are the criteria of d that have a command to run, read
// from the snapshot d belongs to: none in Restricted Mode or outside the
// workspace folders, where verify refuses to run anything. Their lenses
// and actions are verify.Lens and verify.Actions. With at set, only the
// criterion whose block holds that offset: a code action needs no more,
// and reading every criterion's command took 15 ms on a 5,000-VAL
// register, on every cursor move.
func (s *Server) verifyTargets(d *doc, at *int) []*verify.Target {
	if d.snap.Settings().Restricted || !s.InWorkspace(d.Path) {
		return nil
	}
	one := func(t *verify.Target) []*verify.Target {
		if t == nil {
			return nil
		}
		return []*verify.Target{t}
	}
	switch d.Kind {
	case analysis.KindCriteria, analysis.KindPiCharter:
		view := d.piView()
		if view == nil || view.Dir.CriteriaPath != d.Path {
			return nil // the register is in the other file
		}
		if at != nil {
			return one(verify.PiTargetAt(view.Dir, *at))
		}
		return verify.PiTargets(view.Dir)
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			if at != nil {
				return one(verify.ChartersTargetAt(v.Dir, *at))
			}
			return verify.ChartersTargets(v.Dir)
		}
	}
	return nil
}
