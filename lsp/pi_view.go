package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// piView is a pi-charter directory as the pi features (hover, code lens,
// code actions, completion, definition) see it: read through the overlay, so
// unsaved edits count, with each VAL's latest outcome and the stale ones.
type piView struct {
	dir    *pi.Dir
	latest map[string]pi.Outcome
	stale  map[string]pi.StaleEvidence
}

// loadPi reads the charter directory dir.
func (s *Server) loadPi(dir string) *piView {
	cfg := s.Config()
	d := s.cache.LoadDir(s.fs, dir)
	v := &piView{dir: d, latest: pi.LatestOutcomes(d), stale: map[string]pi.StaleEvidence{}}
	for _, st := range pi.FindStale(d, v.latest, s.cache.Clock(cfg, s.fs)) {
		v.stale[st.Criterion.ID] = st
	}
	return v
}

func (v *piView) criteriaFile() *pi.File {
	if v == nil || v.dir == nil {
		return nil
	}
	return v.dir.CriteriaFile
}

// criterion returns the VAL id of the effective register, or nil.
func (v *piView) criterion(id string) *pi.Criterion {
	if v.dir.Criteria == nil {
		return nil
	}
	return v.dir.Criteria.Lookup(id)
}

// milestoneOf returns the milestone holding the VAL id, or nil.
func (v *piView) milestoneOf(id string) *pi.Milestone {
	if v.dir.Criteria == nil {
		return nil
	}
	for _, m := range v.dir.Criteria.Milestones {
		for _, c := range m.Criteria {
			if c.ID == id {
				return m
			}
		}
	}
	return nil
}

// progress counts a milestone's VALs whose latest outcome is pass, the rule
// status uses for valPassCount.
func (v *piView) progress(m *pi.Milestone) (pass, total int) {
	for _, c := range m.Criteria {
		if v.latest[c.ID].Outcome == "pass" {
			pass++
		}
	}
	return pass, len(m.Criteria)
}

// docRegister parses the VAL register held by document d itself: criteria.md,
// or the legacy ## Criteria section of a pi charter.md when that is the
// register in use. Spans are offsets into d.Text, so they map through
// d.Index() even while the disk holds another version.
func docRegister(d *Document, view *piView) *pi.Criteria {
	switch d.Kind {
	case analysis.KindCriteria:
		// The view usually holds this very version (read through the
		// overlay): reuse its parse.
		if f := view.criteriaFile(); f != nil && f.Path == d.Path && bytes.Equal(f.Src, d.Text) {
			return view.dir.CriteriaDoc
		}
		return pi.ParseCriteria(d.Text)
	case analysis.KindPiCharter:
		if view != nil && view.dir.Legacy {
			return pi.ParseCharter(d.Text).Criteria
		}
	}
	return nil
}

// criterionAt returns the VAL whose heading or body holds offset off.
func criterionAt(cr *pi.Criteria, off int) *pi.Criterion {
	if cr == nil {
		return nil
	}
	for _, c := range cr.Criteria {
		if c.HeadingSpan.Start <= off && (off <= c.HeadingSpan.End || off <= c.BodySpan.End) {
			return c
		}
	}
	return nil
}

// headingAt returns the VAL whose heading line holds offset off.
func headingAt(cr *pi.Criteria, off int) *pi.Criterion {
	if c := criterionAt(cr, off); c != nil && off <= c.HeadingSpan.End {
		return c
	}
	return nil
}

// ago renders the time between t and now the way an editor shows it:
// "just now", "5m ago", "2h ago", "3d ago" (or "in 2h" for a future time).
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0 && -d >= time.Minute:
		return "in " + approx(-d)
	case d < time.Minute:
		return "just now"
	}
	return approx(d) + " ago"
}

// approx renders a duration coarsely: 5m, 2h, 3d.
func approx(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// relTo shows path relative to dir when inside it.
func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}
