package charterfile

import (
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// What lies at a byte offset of charter.md, for the editor's hover, go to
// definition and completion. Each answer is read the way the generation's
// parser reads the file.

// Criterion returns the criterion upstream keeps with id, or nil. It is
// found by a map the parser makes: readiness (Ready) asks it of every
// Depends id, and scanning the criteria for each made status of 67,000
// criteria (4 MB) take 17 s.
func (c *Charter) Criterion(id string) *Criterion {
	return c.byID[id]
}

// Dependents are the criteria whose Depends line names id, in file order.
func (c *Charter) Dependents(id string) []*Criterion {
	var out []*Criterion
	for _, cr := range c.Criteria {
		for _, d := range cr.Depends {
			if d == id {
				out = append(out, cr)
				break
			}
		}
	}
	return out
}

// Waiting lists the criteria cr depends on that do not pass yet (ids that
// name no criterion do not hold it back, as upstream's readyCriteria has
// it).
func (c *Charter) Waiting(cr *Criterion) []*Criterion {
	var out []*Criterion
	for _, id := range cr.Depends {
		if d := c.Criterion(id); d != nil && d.Status != StatusPass {
			out = append(out, d)
		}
	}
	return out
}

// CriterionAt returns the criterion whose block holds off (a duplicate id's
// ignored block included), and whether off is on its heading line.
func (c *Charter) CriterionAt(off int) (cr *Criterion, onHeading bool) {
	for _, list := range [][]*Criterion{c.Criteria, c.Dropped} {
		for _, x := range list {
			if off >= x.BlockSpan.Start && off <= x.BlockSpan.End {
				return x, off <= x.HeadingSpan.End
			}
		}
	}
	return nil, false
}

// PhaseAt returns the phase whose item line holds off, and its position
// (1-based) among the phases.
func (c *Charter) PhaseAt(off int) (*Phase, int) {
	for i, ph := range c.Phases {
		if off >= ph.ItemSpan.Start && off <= ph.ItemSpan.End {
			return ph, i + 1
		}
	}
	return nil, 0
}

// SectionName names the sections upstream reads.
type SectionName string

const (
	SectionObjective  SectionName = "Objective"
	SectionReferences SectionName = "References"
	SectionScope      SectionName = "Scope"
	SectionPhases     SectionName = "Phases"
	SectionCriteria   SectionName = "Criteria"
)

// SectionAt returns the section whose heading line holds off.
func (c *Charter) SectionAt(off int) (SectionName, bool) {
	at := func(sp source.Span) bool { return off >= sp.Start && off <= sp.End }
	switch {
	case c.Objective.Found && at(c.Objective.HeadingSpan):
		return SectionObjective, true
	case c.References.Found && at(c.References.HeadingSpan):
		return SectionReferences, true
	case c.Scope.Found && at(c.Scope.HeadingSpan):
		return SectionScope, true
	case c.Generation == PH && c.PhasesSection.Found && at(c.PhasesSection.HeadingSpan):
		return SectionPhases, true
	case c.Generation.FileInterface() && c.CriteriaHeading != nil && at(*c.CriteriaHeading):
		return SectionCriteria, true
	}
	return "", false
}

// ObjectiveEnd is the line that ends the Objective (a heading), or -1 when
// it runs to the end of the file; and the subheadings it keeps, as
// written.
func (c *Charter) ObjectiveEnd() (endLine int, endHeading string, kept []string) {
	o := c.Objective
	if !o.Found {
		return -1, "", nil
	}
	t := c.text
	for i := o.head + 1; i < o.end; i++ {
		if lv, _, _, ok := heading(t.line(i)); ok && lv <= 3 && !t.inFence(i) {
			if _, _, _, _, crit := criterionHeading(t.line(i)); !crit {
				kept = append(kept, strings.TrimSpace(strings.TrimSuffix(t.line(i), "\r")))
			}
		}
	}
	if o.end >= t.n() {
		return -1, "", kept
	}
	return o.end, strings.TrimSpace(strings.TrimSuffix(t.line(o.end), "\r")), kept
}

// lineOf is the stripped line holding file offset off.
func (t *text) lineOf(off int) int {
	i := sort.Search(t.n(), func(i int) bool { return t.lineSpan(i).Start > off })
	return max(i-1, 0)
}

// blockOf is the criterion (kept or dropped) whose block holds line i,
// below its heading.
func (c *Charter) blockOf(i int) *Criterion {
	for _, list := range [][]*Criterion{c.Criteria, c.Dropped} {
		for _, cr := range list {
			if i > cr.head && i < cr.end {
				return cr
			}
		}
	}
	return nil
}

// DependsAt is the Depends id under off, in any Depends line of a
// criterion block (one a later line overrides included): its span, and
// the criterion it names (nil when none has that id).
func (c *Charter) DependsAt(off int) (id string, span source.Span, target *Criterion) {
	for _, r := range c.DependsRefs() {
		if off >= r.Span.Start && off <= r.Span.End {
			return r.ID, r.Span, c.Criterion(r.ID)
		}
	}
	return "", source.Span{}, nil
}

// TitleLine is the file's first heading line, as every pi parser reads
// headings (after comments are stripped): the title of the charter, which
// is the Objective heading itself in the Objective grammar.
func (c *Charter) TitleLine() (source.Span, bool) {
	t := c.text
	for i := 0; i < t.n(); i++ {
		if anyHeading(t.line(i)) {
			return t.lineContentSpan(i), true
		}
	}
	return source.Span{}, false
}
